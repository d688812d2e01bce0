@testable import BoardEmulator
import Foundation
import SerialIO
import TestSupport
import Testing
import TiltAssets
import TiltCore
import TiltDisplay
import TiltPhysics
import TiltPipeline
import TiltserialCommand
import WireProtocol

/// The real firmware, Hardware/build/tiltserial.elf, built by the Makefile
/// before `swift test` (`make test`; the tests build nothing). Found from this
/// file's folder, not the working directory; missing, it fails the test with
/// one line naming `make -C Hardware`.
enum Firmware {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let elf = root + "/" + FirmwareLocation.inSourceTree

    /// The ELF's path; throws naming the make target if it is not built.
    static func path() throws -> String {
        guard FileManager.default.fileExists(atPath: elf) else {
            throw E2EFailure("\(FirmwareLocation.inSourceTree) is missing: build it with make -C Hardware (make test does)")
        }
        return elf
    }

    /// An AVR board running the firmware, free-running unless told otherwise.
    static func board(pace: AVRPace = .freeRunning, link: String? = nil, motion: any MotionSource = ConstantMotionSource.faceUp,
                      sensor: UInt8? = 0x68, whoAmI: UInt8 = 0x68, display: UInt8 = 0x3C, displayPart: EmulatedDisplay = .ssd1306,
                      resetOnConnect: Bool = false) throws -> AVRBoard {
        var configuration = AVRBoard.Configuration(firmwarePath: try path(), pace: pace, linkPath: link, motionSource: motion)
        configuration.sensorAddress = sensor
        configuration.sensorWhoAmI = whoAmI
        configuration.displayAddress = display
        configuration.display = displayPart
        configuration.resetOnConnect = resetOnConnect
        return try AVRBoard(configuration)
    }
}

extension Firmware {
    /// A started board with a client that has seen its first samples, switched
    /// to `sampleRateHz` (CONFIGURE, answered by a second HELLO) unless 100.
    /// The caller stops the board.
    static func streaming(at sampleRateHz: UInt16, pace: AVRPace) throws -> (AVRBoard, PtyPeer) {
        let board = try board(pace: pace)
        let client = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        #expect(try client.read { $0.samples.count >= 3 })
        if sampleRateHz != 100 {
            try client.send(ConfigureFrame(sampleRateHz: sampleRateHz, accelFullScaleSelect: 0, gyroFullScaleSelect: 0))
            #expect(try client.read { $0.hellos.count >= 2 })
        }
        return (board, client)
    }
}

struct E2EFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let shippedArt = try! TiltAssets.load()

/// The screen the host's renderer draws for `offsets`.
func rendered(_ offsets: OffsetsFrame) -> Screen {
    var mirror = DisplayMirror(renderer: shippedArt.renderer)
    mirror.show(offsets)
    return mirror.screen
}

func rendered(_ view: (UInt16, UInt16, UInt16, UInt16)) -> Screen {
    rendered(OffsetsFrame(sequence: 0, viewportX: view.0, viewportY: view.1, ribbonX: view.2, ribbonBottom: view.3, flags: []))
}

/// 5×7 glyphs, one byte per column, LSB = top row, for ' ' '-' '.' '0'-'9' 'A'-'Z':
/// the test's own copy, an oracle independent of the firmware's C (src/core/tilt_status.c).
let statusGlyphs: [[UInt8]] = [
    [0x00, 0x00, 0x00, 0x00, 0x00], [0x08, 0x08, 0x08, 0x08, 0x08], [0x00, 0x60, 0x60, 0x00, 0x00],
    [0x3E, 0x51, 0x49, 0x45, 0x3E], [0x00, 0x42, 0x7F, 0x40, 0x00], [0x42, 0x61, 0x51, 0x49, 0x46],
    [0x21, 0x41, 0x45, 0x4B, 0x31], [0x18, 0x14, 0x12, 0x7F, 0x10], [0x27, 0x45, 0x45, 0x45, 0x39],
    [0x3C, 0x4A, 0x49, 0x49, 0x30], [0x01, 0x71, 0x09, 0x05, 0x03], [0x36, 0x49, 0x49, 0x49, 0x36],
    [0x06, 0x49, 0x49, 0x29, 0x1E],
    [0x7E, 0x11, 0x11, 0x11, 0x7E], [0x7F, 0x49, 0x49, 0x49, 0x36], [0x3E, 0x41, 0x41, 0x41, 0x22],
    [0x7F, 0x41, 0x41, 0x22, 0x1C], [0x7F, 0x49, 0x49, 0x49, 0x41], [0x7F, 0x09, 0x09, 0x09, 0x01],
    [0x3E, 0x41, 0x49, 0x49, 0x7A], [0x7F, 0x08, 0x08, 0x08, 0x7F], [0x00, 0x41, 0x7F, 0x41, 0x00],
    [0x20, 0x40, 0x41, 0x3F, 0x01], [0x7F, 0x08, 0x14, 0x22, 0x41], [0x7F, 0x40, 0x40, 0x40, 0x40],
    [0x7F, 0x02, 0x0C, 0x02, 0x7F], [0x7F, 0x04, 0x08, 0x10, 0x7F], [0x3E, 0x41, 0x41, 0x41, 0x3E],
    [0x7F, 0x09, 0x09, 0x09, 0x06], [0x3E, 0x41, 0x51, 0x21, 0x5E], [0x7F, 0x09, 0x19, 0x29, 0x46],
    [0x46, 0x49, 0x49, 0x49, 0x31], [0x01, 0x01, 0x7F, 0x01, 0x01], [0x3F, 0x40, 0x40, 0x40, 0x3F],
    [0x1F, 0x20, 0x40, 0x20, 0x1F], [0x3F, 0x40, 0x38, 0x40, 0x3F], [0x63, 0x14, 0x08, 0x14, 0x63],
    [0x07, 0x08, 0x70, 0x08, 0x07], [0x61, 0x51, 0x49, 0x45, 0x43],
]

func statusGlyphIndex(_ c: Character) -> Int {
    guard let a = c.asciiValue else { return 0 }
    switch a {
    case 65...90: return 13 + Int(a - 65)
    case 48...57: return 3 + Int(a - 48)
    case 45: return 1
    case 46: return 2
    default: return 0
    }
}

/// The firmware's status screen (src/core/tilt_status.c) for the given page texts.
func statusScreen(_ lines: [Int: String]) -> Screen {
    var bytes = [UInt8](repeating: 0, count: Screen.byteCount)
    for (page, text) in lines {
        let chars = Array(text)
        let width = chars.count * 6 - 1
        let left = (Screen.width - width) / 2
        for x in left..<(left + width) where (x - left) % 6 != 5 {
            bytes[page * Screen.width + x] = statusGlyphs[statusGlyphIndex(chars[(x - left) / 6])][(x - left) % 6]
        }
    }
    return Screen(bytes: bytes)!
}

let waitingScreen = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD"])
let noSensorScreen = statusScreen([1: "TILTSERIAL 1.0.0", 3: "NO SENSOR", 5: "CHECK SDA A4 SCL A5"])

extension AVRBoardStatus {
    var screen: Screen { Screen(bytes: display.vram)! }
}

/// `HostRunner` (the real host loop) on its own thread against a port, with
/// everything it reports (it is the run's `HostOutput`) kept for the test and waitable.
final class RunningHost: HostOutput, @unchecked Sendable {
    struct State {
        var events: [HostEvent] = []
        /// The driver's news about the link, in order.
        var news: [HostNews] = []
        /// Each report of other programs holding the port open.
        var otherOpeners: [[DeviceOpener]] = []
        var ticks: [Tick] = []
        var offsets: [OffsetsFrame] = []
        var hellos = 0
        var fires = 0
        /// OFFSETS sent between ticks, in answer to the board's READY (frame sync).
        var views = 0
        /// The last OFFSETS, DRAWER and PIN the host sent, drawn by the host's renderer.
        var mirror = DisplayMirror(renderer: shippedArt.renderer)
        var snapshot: HostSnapshot?
        var summary: HostSummary?
        var failure: (any Error)?
        var finished = false
        var keepEvents = true
    }

    let stop = try! WakeUpPipe()
    private let condition = NSCondition()
    private var state = State()

    /// Runs the host on `port` (the path given to `SerialPort.open`). With `openItself`,
    /// HostRunner opens (and after an unplug reopens) the port; otherwise the test
    /// opens it once with `SerialPort.open` and hands the transport over.
    init(port: String, openItself: Bool = false, keepEvents: Bool = true, configure: (inout HostRunOptions) -> Void = { _ in }) throws {
        var options = HostRunOptions(port: port)
        options.settings.dtr = .leave
        options.timing.refreshMicros = 20_000
        options.timing.reopenFirstMicros = 20_000
        options.timing.reopenMaxMicros = 80_000
        configure(&options)
        state.keepEvents = keepEvents
        let transport: (any SerialTransport)? = openItself ? nil : try SerialPort.open(path: port, options: SerialOptions(dtr: .leave))
        // The runner holds this output strongly: the run thread keeps it alive until it ends (`finish()`).
        nonisolated(unsafe) let runner = try HostRunner(options: options, output: self, art: shippedArt)
        let stop = stop
        let thread = Thread { [self] in
            do {
                let summary = try runner.run(transport: transport, stop: stop)
                update { $0.summary = summary; $0.finished = true }
            } catch {
                update { $0.failure = error; $0.finished = true }
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    func news(_ news: HostNews) { update { $0.news.append(news) } }
    func refresh(_ snapshot: HostSnapshot) { update { $0.snapshot = snapshot } }
    func otherOpeners(_ others: [DeviceOpener]) { update { $0.otherOpeners.append(others) } }

    func event(_ event: HostEvent) {
        update { s in
            if s.keepEvents { s.events.append(event) }
            switch event {
            case .hello: s.hellos += 1
            case .fired: s.fires += 1
            case .tick(let tick, let wire):
                if s.keepEvents { s.ticks.append(tick); s.offsets.append(wire.frame) }
                s.mirror.show(wire.frame)
            case .view(let wire):
                s.views += 1
                s.mirror.show(wire.frame)
            case .sceneFrames(let wire):
                s.mirror.apply(wire)
            default: break
            }
        }
    }

    private func update(_ body: (inout State) -> Void) {
        condition.lock()
        body(&state)
        condition.broadcast()
        condition.unlock()
    }

    var current: State { condition.withLock { state } }

    /// Waits until `predicate` holds (or the run ends); the state then, or nil at the timeout.
    @discardableResult
    func waitFor(seconds: Double = 20, _ predicate: (State) -> Bool) -> State? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(state) {
            if state.finished || !condition.wait(until: deadline) { return predicate(state) ? state : nil }
        }
        return state
    }

    /// Stops the run (the stop pipe, like Ctrl-C) and returns its summary.
    /// Idempotent: tests also call it on the way out (`defer`).
    func finish() -> HostSummary? {
        stop.wake()
        return waitFor(seconds: 10) { $0.finished }?.summary
    }
}

