import BoardEmulator
import Foundation
import TestSupport
import Testing
import TiltCore
@testable import TiltserialCommand
import WireProtocol

/// `tiltserial run --pins FILE` over a pty against a board written in the test:
/// the dropped pin is saved, and the board gets it again after a replug and
/// from the next run (docs/usage.md, "The drawer and the pins").
@Suite(.serialized) struct PinsLiveTests {
    /// SAMPLE frames of `script` at 100 Hz (board time wrapping at 2^24 µs, as on the wire).
    static func samples(_ script: MotionScript, seconds: Double, seed: UInt64 = 9) -> [UInt8] {
        var motion = Motion(.script(script), noise: SensorNoise(sampleRate: 100, seed: seed))
        var wire: [UInt8] = []
        for k in 0..<Int(seconds * 100) {
            let t = UInt64(k) * 10_000
            SampleFrame(sequence: UInt8(truncatingIfNeeded: k), boardTime: UInt32(truncatingIfNeeded: 1000 + t) & 0xFF_FFFF,
                        raw: motion.sample(atMicros: t)).encode(into: &wire)
        }
        return wire
    }

    static let rest = MotionScript(keys: [.init(0, .rest)])

    static func pins(_ board: PtyPeer) -> [PinFrame] { board.frames.compactMap { if case .pin(let p) = $0 { p } else { nil } } }
    static func drawers(_ board: PtyPeer) -> [DrawerFrame] { board.frames.compactMap { if case .drawer(let d) = $0 { d } else { nil } } }

    /// The live view shows one message: the pin's line, where it went, stays
    /// in sight when the drawer closes on the drop's tick (a tester never saw
    /// it: "drawer closed" took its place before the next redraw).
    @Test func theViewKeepsWhereThePinWentWhenTheDrawerCloses() throws {
        let link = tempPath("board"), file = tempPath("pins.json")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--pins", file], terminal: true, screen: .fixed(columns: 80, rows: 24))
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.sendChunked(Stream.hello(rate: 100) + Self.samples(Scenarios.drawer, seconds: Scenarios.drawer.duration + 1))
        let shown = #/pin: home dropped at \d+,\d+; drawer closed/#
        #expect(host.captured.waitFor(timeout: .seconds(30)) { _, err in err.contains(shown) }, "\(host.captured.err.suffix(600))")
        #expect(host.interrupt() == 0)
    }

    @Test func aDroppedPinIsSavedAndComesBackAfterAReplugAndARestart() throws {
        let link = tempPath("board"), file = tempPath("pins.json")
        var board = try PtyPeer(boardAt: link)
        let host = InProcessHost(["run", link, "--pins", file, "--json"])
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.sendChunked(Stream.hello(rate: 100) + Self.samples(Scenarios.drawer, seconds: Scenarios.drawer.duration + 1))
        #expect(host.captured.waitFor(timeout: .seconds(30)) { _, err in err.contains("pin: home dropped at") }, "\(host.captured.err)")
        // Saved at the drop.
        let saved = try PinStore(path: file).load()
        try #require(saved.count == 1)
        let pin = saved[0]
        #expect(pin.item == 3)
        #expect(host.captured.out.contains("{\"event\":\"pin\",\"item\":\"home\",\"x\":\(pin.x),\"y\":\(pin.y),"))
        // The board was told: the pin in slot 0, one pin to draw.
        let frame = PinFrame(slot: 0, item: 3, x: UInt16(pin.x), y: UInt16(pin.y))
        #expect(try board.read { _ in Self.pins(board).contains(frame) && Self.drawers(board).last?.pinCount == 1 })

        // Replug: a new board (its RAM empty) at the same path gets the pin again.
        board.close()
        board = try PtyPeer(boardAt: link)
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("reopened; waiting for the board to speak") })
        try board.sendChunked(Stream.hello(rate: 100) + Self.samples(Self.rest, seconds: 1))
        #expect(try board.read { _ in Self.pins(board).first == frame && Self.drawers(board).first?.pinCount == 1 },
                "after the replug: \(board.frames.suffix(4))")
        #expect(host.interrupt() == 0)
        board.close()

        // Restart: the next run reads the file and sends the pin from its first tick.
        board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let again = InProcessHost(["run", link, "--pins", file])
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.sendChunked(Stream.hello(rate: 100) + Self.samples(Self.rest, seconds: 1))
        #expect(try board.read { _ in Self.pins(board).first == frame && Self.drawers(board).first?.pinCount == 1 })
        #expect(again.interrupt() == 0)
        #expect(runTiltserial(["pins", "list", "--pins", file]).out == "1  home  \(pin.x),\(pin.y)\n")
    }
}
