import Foundation
import SerialIO
import Testing
import TiltAssets
import TiltCore
import TiltPhysics
import TiltPipeline
import TestSupport
import TiltserialCommand
import WireProtocol

/// `tiltserial ARGS` run in this process on its own thread, output captured.
final class InProcessHost: @unchecked Sendable {
    let captured: CapturedConsole
    let stop = try! WakeUpPipe()
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var code: Int32?

    /// `environment`: what the command sees of HOME and XDG_* (none: no default config file).
    /// `screen`: the terminal the live view draws on when `terminal`.
    /// `answers`: what a person types, a line each (`setup` asks; nil: stdin is not a terminal).
    init(_ arguments: [String], terminal: Bool = false, environment: [String: String] = [:],
         screen: TerminalScreen = .fixed(columns: 140, rows: 45), answers: [String]? = nil) {
        captured = CapturedConsole(errIsTerminal: terminal, screen: screen)
        var context = CommandContext(console: captured.console, stop: stop, handleSignals: false, environment: environment)
        context.inputIsTerminal = answers != nil
        let lines = NSLock(), remaining = UnsafeMutableTransferBox(answers ?? [])
        context.readLine = { lines.withLock { remaining.value.isEmpty ? nil : remaining.value.removeFirst() } }
        let thread = Thread { [self, context] in
            let result = TiltserialMain.run(arguments: arguments, context: context)
            lock.withLock { code = result }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The exit code, or nil if it is still running after `seconds`.
    func wait(seconds: Double = 10) -> Int32? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        done.signal()
        return lock.withLock { code }
    }

    /// Ctrl-C, then the exit code.
    func interrupt(seconds: Double = 10) -> Int32? {
        stop.wake()
        return wait(seconds: seconds)
    }
}

/// A value shared with a `@Sendable` closure, guarded by the caller's lock.
final class UnsafeMutableTransferBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Runs a command to completion in-process: (exit code, stdout, stderr).
func runTiltserial(_ arguments: [String], seconds: Double = 20, environment: [String: String] = [:], terminal: Bool = false,
                   screen: TerminalScreen = .fixed(columns: 140, rows: 45)) -> (code: Int32?, out: String, err: String) {
    let host = InProcessHost(arguments, terminal: terminal, environment: environment, screen: screen)
    let code = host.wait(seconds: seconds)
    if code == nil { host.stop.wake(); _ = host.wait(seconds: 5) }
    return (code, host.captured.out, host.captured.err)
}

/// One of this package's executables (`tiltserial`, `tiltsim`), built beside
/// the tests, ready to run with `arguments` (its descriptors the caller's to set).
func productProcess(_ name: String, _ arguments: [String]) -> Process {
    let process = Process()
    process.executableURL = Bundle.main.bundleURL.appendingPathComponent(name)
    process.arguments = arguments
    return process
}

/// What `pipe` (a child's stderr) carries until `marker` appears or the child
/// ends (end of file): a wait on the child's own words, not on the clock;
/// `seconds` only bounds a child that falls silent, so a test fails instead
/// of hanging the suite (one waited for ever on a replay that never fired).
func readUntil(_ marker: String, from pipe: Pipe, seconds: Int = 120) -> String {
    var text = ""
    let fd = pipe.fileHandleForReading.fileDescriptor
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !text.contains(marker) {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { break }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let waited = poll(&entry, 1, Int32(min(left.components.seconds * 1000 + 1, 60_000)))
        if waited < 0 && errno == EINTR { continue }
        guard waited >= 0 else { break }
        guard waited > 0 else { continue }
        let data = pipe.fileHandleForReading.availableData
        if data.isEmpty { break }  // the process ended
        text += String(decoding: data, as: UTF8.self)
    }
    return text
}

/// Sends `signal` and waits for `process` to end, at most 30 s (then SIGKILL,
/// so a child that shrugs the signal off cannot hang the suite); the rest of
/// `pipe` (its stderr) once it has. False when it had to be killed.
func signalAndAwaitEnd(_ process: Process, _ signal: Int32, reading pipe: Pipe) -> (ended: Bool, rest: String) {
    let ended = Condition()
    process.terminationHandler = { _ in ended.changing {} }
    kill(process.processIdentifier, signal)
    let inTime = ended.wait(timeout: .seconds(30), until: { !process.isRunning })
    if !inTime { kill(process.processIdentifier, SIGKILL) }
    let rest = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (inTime, rest)
}

/// One of this package's executables, run to its end: its exit code and stdout.
func runProduct(_ name: String, _ arguments: [String]) throws -> (code: Int32, out: String) {
    let process = productProcess(name, arguments)
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

enum Stream {
    static var tileID: UInt16 { TiltAssets.tile.id }

    /// `status`: bit 0 the sensor answered, bit 1 the display did.
    static func hello(version: UInt8 = WireFormat.version, rate: UInt16 = 1000, status: UInt8 = 3) -> [UInt8] {
        HelloFrame(protocolVersion: version, firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, accelFullScaleSelect: 0,
                   gyroFullScaleSelect: 0, sampleRateHz: rate, contentTileID: tileID, status: status).encoded()
    }

    /// A tilt that moves the view: rolling one way then the other, pitched toward the top.
    static func raw(_ i: Int) -> RawSample {
        RawSample(accel: Axes3(x: Int16(7000 * (i % 1200 < 600 ? 1 : -1)), y: 3000, z: Int16(-1000 - (i % 1500) * 9)))
    }

    static func samples(_ range: Range<Int>, start: UInt32 = 1000) -> (wire: [UInt8], samples: [TimedSample]) {
        var wire: [UInt8] = []
        var timed: [TimedSample] = []
        for i in range {
            let k = i - range.lowerBound
            let time = start + UInt32(k) * 1000
            SampleFrame(sequence: UInt8(truncatingIfNeeded: k), boardTime: time, raw: raw(i)).encode(into: &wire)
            timed.append(TimedSample(timeMicros: UInt64(time), sequence: UInt8(truncatingIfNeeded: k), raw: raw(i)))
        }
        return (wire, timed)
    }

    /// SAMPLEs `indices` of a held pose, sample k at board time 1000 + 1000 k µs: x = -8192
    /// and z = 12288 counts at ±2 g, that is iOS ax = +0.5 g and az = -0.75 g
    /// (iOS = -(counts / 16384), the sensor's z up).
    static func heldTilt(_ indices: Range<Int>) -> (wire: [UInt8], samples: [TimedSample]) {
        var wire: [UInt8] = []
        var timed: [TimedSample] = []
        let raw = RawSample(accel: Axes3(x: -8192, y: 0, z: 12288))
        for k in indices {
            let time = 1000 + UInt32(k) * 1000
            SampleFrame(sequence: UInt8(truncatingIfNeeded: k), boardTime: time, raw: raw).encode(into: &wire)
            timed.append(TimedSample(timeMicros: UInt64(time), sequence: UInt8(truncatingIfNeeded: k), raw: raw))
        }
        return (wire, timed)
    }

    /// What `--physics recipe` must send for `heldTilt(0..<count)`, derived by hand
    /// from ../shared/recipes.md §1 (the sample code's C semantics), not from TiltEngine:
    /// - Ticks run every `tickMicros` (the recipe's 30 000) µs of board time after the first
    ///   sample (1000 µs), once a sample at or past the tick has arrived: ticks at 31 000, 61 000, …
    ///   The last sample is at 1000 + (count − 1) × 1000 µs, so there are
    ///   ⌊(count − 1) × 1000 / tickMicros⌋ ticks.
    /// - x: xx = −ax = −0.5. Gain and velocity start at 0, so accelDir = −SIGN(0) = −1
    ///   equals newDir = SIGN(−0.5) = −1 on the first sample: gain = (abs(0) + 0.005) × SIGN(0)
    ///   = +0.005 and stays there (C's integer abs(0.005) = 0); velocity = −gain × xx = +0.0025.
    /// - y: yy = (az + 0.5) × 2 = −0.5; the same steps give velocity +0.0025.
    /// - Each tick (whatever its length: the recipe integrates per tick) adds the velocity: after tick k both offsets are 0.0025 k (below 1 for k < 400).
    /// - The content is the 256 × 128 map tile grown to cover 4 × the 128 × 64 display:
    ///   512 × 256, so the viewport spans 0…384 and 0…192: x = round(0.96 k), y = round(0.48 k).
    ///   (0.96 k and 0.48 k are multiples of 0.04, never within 0.02 of a half: float error cannot flip them.)
    /// - The ribbon (12 × 36 art) hangs at the content's centre: left column 256 − 6 = 250;
    ///   at rest 15 of its rows show, so its bottom is content row 15. Nothing pulls it: no flags.
    static func recipeOffsets(forHeldTilt count: Int, tickMicros: Int = 30_000) -> [OffsetsFrame] {
        let ticks = (count - 1) * 1000 / tickMicros
        return (1..<ticks + 1).map { k in
            OffsetsFrame(sequence: UInt8(truncatingIfNeeded: k - 1),
                         viewportX: UInt16((0.96 * Double(k)).rounded()), viewportY: UInt16((0.48 * Double(k)).rounded()),
                         ribbonX: 250, ribbonBottom: 15, flags: [])
        }
    }
}

/// `name` in a new empty folder of this test process's scratch space.
func tempPath(_ name: String) -> String {
    ScratchSpace.folder("tiltserial") + "/" + name
}

/// Whether `condition` holds within `seconds`, looked at every 10 ms: for
/// states nothing signals, such as another process's /proc entries.
func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if deadline.timeIntervalSinceNow <= 0 { return false }
        usleep(10_000)
    }
    return true
}
