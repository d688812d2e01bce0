import Foundation
import SerialIO
import Testing
import TiltAssets
import TiltCore
import TiltPhysics
import TiltPipeline
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
/// the tests, run to its end: its exit code and stdout.
func runProduct(_ name: String, _ arguments: [String]) throws -> (code: Int32, out: String) {
    let process = Process()
    process.executableURL = Bundle.main.bundleURL.appendingPathComponent(name)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

/// The board's side of a pty, written in the test with the protocol's encoders.
final class TestBoard {
    let pty: PseudoTerminal
    var decoder = FrameDecoder()
    var received: [DecodedFrame] = []

    init(link: String) throws {
        pty = try PseudoTerminal.open(keepSlaveOpen: true, link: link)
    }

    func send(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try pty.master.write($0) }
    }

    /// Sends in pieces so neither side's buffer fills while the other is busy.
    func sendChunked(_ bytes: [UInt8], chunk: Int = 2048) throws {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try send(Array(bytes[start..<end]))
            _ = try readAvailable()
            start = end
        }
    }

    /// Reads whatever the host sent so far (never waits).
    @discardableResult
    func readAvailable() throws -> Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while true {
            let n = try buffer.withUnsafeMutableBytes { try pty.master.read(into: $0) }
            if n == 0 { return total }
            total += n
            decoder.feed(buffer[0..<n]) { received.append($0) }
        }
    }

    /// Waits (poll, not sleep) until `predicate` holds on the frames received; false on timeout.
    func waitFor(seconds: Double = 10, _ predicate: ([DecodedFrame]) -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !predicate(received) {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            if try pty.master.waitReadable(timeout: .seconds(left)) { try readAvailable() }
        }
        return true
    }

    var offsets: [OffsetsFrame] { received.compactMap { if case .offsets(let o) = $0 { o } else { nil } } }
    var hostHellos: Int { received.filter { if case .hostHello = $0 { true } else { false } }.count }
    var describes: Int { received.filter { if case .describe = $0 { true } else { false } }.count }

    func close() { pty.close() }
}

enum Stream {
    static var tileID: UInt16 { TiltAssets.tile.id }

    static func hello(version: UInt8 = WireFormat.version, rate: UInt16 = 1000) -> [UInt8] {
        HelloFrame(protocolVersion: version, firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, accelFullScaleSelect: 0,
                   gyroFullScaleSelect: 0, sampleRateHz: rate, contentTileID: tileID, status: 3).encoded()
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

    /// The OFFSETS the host must send: TiltEngine run directly on the samples.
    static func expectedOffsets(_ samples: [TimedSample], settings: PhysicsSettings = PhysicsSettings()) -> [OffsetsFrame] {
        var engine = try! TiltEngine(settings: settings, geometry: TiltAssets.tile.geometry, ribbonArt: TiltAssets.ribbon.mask)
        var frames: [OffsetsFrame] = []
        var sequence: UInt8 = 0
        for s in samples {
            engine.ingest(s) { tick in
                frames.append(OffsetsFrame(tick: tick, sequence: sequence))
                sequence &+= 1
            }
        }
        return frames
    }
}

func tempPath(_ name: String) -> String {
    let dir = NSTemporaryDirectory() + "tiltserial-tests-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir + "/" + name
}
