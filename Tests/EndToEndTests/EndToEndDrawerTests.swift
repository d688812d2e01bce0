import Foundation
import SerialIO
import Testing
import TiltDisplay
import TiltPhysics
import TiltPipeline
import WireProtocol
@testable import BoardEmulator

/// The drawer end to end: the host (HostRunner, in-process) against our
/// firmware in simavr. At three still moments (the drawer open, an item
/// dragged and held at the display's bottom, the pin dropped on the map) the
/// OLED shows exactly what the host's mirror draws from the OFFSETS, DRAWER
/// and PIN frames it sent; and after the board resets, the pin comes back.
@Suite struct EndToEndDrawerTests {
    /// Over to the ribbon and a pull (the drawer opens, still until 12.3 s);
    /// left side down to an item (still from about 14.6 s); a tip toward you
    /// held (the item is pulled out and runs down to the display's bottom edge,
    /// where it stays); rest (dropped at about 21.5 s: the pin on the map).
    static let script = MotionScript(keys: [
        (0, 30, 0), (0.3, 30, -20), (1.5, 30, -20), (2.0, 30, 0), (2.3, 30, 0),
        (2.8, 30, 20), (5.9, 30, 20), (6.4, 30, 0), (6.8, 30, 0),
        (7.3, 5, 0), (8.8, 5, 0), (9.3, 30, 0), (12.0, 30, 0),
        (12.3, 30, -20), (13.8, 30, -20), (14.1, 30, 0), (17.0, 30, 0),
        (17.3, 15, 0), (21.0, 15, 0),
        (21.3, 30, 0), (30, 30, 0),
    ].map { MotionScript.Key($0.0, Pose(back: $0.1, right: $0.2)) })

    /// What the OLED must show: the mirror's screen once the host's last tick is past
    /// `seconds` of board time and `state` holds; it must also differ from the map
    /// and ribbon alone (the drawer or a pin is on it).
    static func check(_ what: String, board: AVRBoard, host: RunningHost, seconds: Double,
                      _ state: @escaping (Tick, RunningHost.State) -> Bool) {
        guard let s = host.waitFor(seconds: 90, { s in
            s.ticks.last.map { Double($0.timeMicros) / 1e6 >= seconds && state($0, s) } ?? false
        }) else {
            Issue.record("\(what): the host never got there; last tick \(String(describing: host.current.ticks.last))")
            return
        }
        let expected = s.mirror.screen
        let last = s.offsets.last!
        #expect(expected != rendered(last), "\(what): the mirror draws more than the map and ribbon")
        let drawn = board.waitFor(timeout: .seconds(30)) { $0.screen == expected }
        #expect(drawn != nil, "\(what): the OLED shows the host's mirror, pixel for pixel")
    }

    @Test func theOLEDEqualsTheMirrorWithTheDrawerOpenDuringADragAndWithThePin() throws {
        let board = try Firmware.board(pace: .speed(2), motion: Motion(.script(Self.script), noise: SensorNoise(sampleRate: 100, seed: 5)))
        defer { board.stop() }
        let host = try RunningHost(port: try #require(board.serialPath))
        defer { _ = host.finish() }
        try #require(host.waitFor(seconds: 10) { !$0.news.isEmpty } != nil, "the host opens the port")
        board.start()

        Self.check("drawer open", board: board, host: host, seconds: 11) { tick, _ in
            tick.drawer.shown == 22 && tick.drawer.dragged == nil
        }
        Self.check("item dragged", board: board, host: host, seconds: 20) { tick, _ in
            tick.drawer.dragged?.top == 48
        }
        Self.check("pin in view", board: board, host: host, seconds: 24) { tick, s in
            tick.drawer.isClosed && s.events.contains { if case .pinned = $0 { true } else { false } }
        }
        // A reset empties the board's pin table; the host sends the pin again.
        let before = host.current
        board.reset()
        Self.check("pin after a reset", board: board, host: host, seconds: 0) { _, s in
            s.hellos > before.hellos && s.ticks.count > before.ticks.count + 40
        }
        let summary = try #require(host.finish())
        #expect(summary.counters.fires == 1 && summary.counters.pinsDropped == 1 && summary.pinCount == 1)
        #expect(summary.counters.lostFrames == 0, "\(summary.counters)")
    }
}
