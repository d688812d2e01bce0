import Foundation
import SerialIO
import Testing
import TiltDisplay
import TiltPipeline
import TiltserialCommand
import WireProtocol
@testable import BoardEmulator

/// The host (HostRunner, in-process) against the real firmware in simavr over
/// a pty, free-running: every condition is on board time or on what the host
/// reported, waited for with a timeout.
@Suite struct EndToEndAVRTests {
    /// Right and back for 2 s, then the rest pose: the view ends mid-map and stays.
    static let moveThenRest = MotionScript(keys: [
        .init(0, .rest), .init(0.5, Pose(back: 40, right: 20)), .init(2.5, Pose(back: 40, right: 20)),
        .init(3, .rest), .init(60, .rest),
    ])

    static func motion(_ script: MotionScript, seed: UInt64 = 1) -> Motion {
        Motion(.script(script), noise: SensorNoise(sampleRate: 100, seed: seed))
    }

    /// What an OFFSETS frame puts on the screen (its sequence and flags do not).
    static func view(_ o: OffsetsFrame) -> [UInt16] { [o.viewportX, o.viewportY, o.ribbonX, o.ribbonBottom] }

    /// Starts `board` once `host` has the port open, so the host sees its first bytes.
    static func start(_ board: AVRBoard, after host: RunningHost) throws {
        try #require(host.waitFor(seconds: 10) { !$0.news.isEmpty } != nil, "the host opens the port")
        board.start()
    }

    /// Frame sync end to end (docs/protocol.md): the host asks with SYNC after
    /// HELLO, the firmware says READY before it takes each new view, and the
    /// host answers with the map where the newest sample puts it; while the
    /// board moves, views go out between the 30 ms ticks, and at rest the glass
    /// is the host's mirror, pixel for pixel.
    @Test func theFirmwareAsksForEachFrameAndTheHostAnswersWithTheNewestView() throws {
        let board = try Firmware.board(motion: Self.motion(Self.moveThenRest))
        defer { board.stop() }
        let host = try RunningHost(port: try #require(board.serialPath))
        defer { _ = host.finish() }
        try Self.start(board, after: host)

        // The tilt lasts from 0.5 s to 3 s of board time; at 4 s the board rests.
        try #require(board.waitFor(timeout: .seconds(60)) { $0.simulatedMicros >= 4_000_000 } != nil)
        let state = try #require(host.waitFor { $0.ticks.last.map { $0.timeMicros >= 3_800_000 } ?? false })
        // 2.5 s of motion is about 80 ticks; the board draws faster than the
        // ticks come and asks before each frame, so views come between them.
        print("frame sync: \(state.views) views between \(state.ticks.count) ticks in 3.8 s of board time")
        #expect(state.views >= 20, "views sent between ticks: \(state.views) (ticks \(state.ticks.count))")
        let settled = try #require(host.waitFor { $0.ticks.last.map { $0.timeMicros >= 5_000_000 } ?? false })
        let drawn = board.waitFor(timeout: .seconds(20)) { $0.screen == settled.mirror.screen }
        #expect(drawn != nil, "at rest the glass is the host's mirror")
        let summary = try #require(host.finish())
        #expect(summary.counters.errors == 0 && summary.counters.lostFrames == 0, "\(summary.counters)")
    }

    @Test func screenEqualsTheHostsRendererAndNoFrameIsLostAt100Hz() throws {
        let board = try Firmware.board(motion: Self.motion(Self.moveThenRest))
        defer { board.stop() }
        let host = try RunningHost(port: try #require(board.serialPath))
        defer { _ = host.finish() }
        try Self.start(board, after: host)

        // 6 s of board time: the motion moves the view, then rests.
        try #require(board.waitFor(timeout: .seconds(60)) { $0.simulatedMicros >= 6_000_000 } != nil)
        let resting = try #require(host.waitFor { $0.ticks.last.map { $0.timeMicros >= 5_500_000 } ?? false })
        // Free-running, the board and the host keep ticking while the test looks:
        // compare views (what the screen shows), never whole OFFSETS frames,
        // whose sequence numbers move on.
        let last = try #require(resting.offsets.last)
        #expect(last.viewportX > 0 && last.viewportY > 0, "the motion scrolled the view (\(last))")
        let expected = rendered(last)
        #expect(expected != waitingScreen)
        #expect(resting.mirror.screen == expected, "the host's mirror draws its last OFFSETS")
        // The firmware redraws within ~35 ms of board time of an OFFSETS it has
        // not drawn; every OFFSETS it may have applied since shows this view.
        let drawn = board.waitFor(timeout: .seconds(20)) { $0.screen == expected }
        #expect(drawn != nil, "the OLED shows the host's view \(last), pixel for pixel")
        let since = host.current.offsets[resting.offsets.count...]
        #expect(since.allSatisfy { Self.view($0) == Self.view(last) }, "the host kept sending the same view while resting")

        let summary = try #require(host.finish())
        let c = summary.counters
        #expect(c.lostFrames == 0 && c.errors == 0, "\(c)")
        #expect(c.decoder.samplesDecoded >= 550, "several seconds of 100 Hz samples (\(c.decoder.samplesDecoded))")
        #expect(c.ticks > 100 && c.fires == 0)
        #expect(host.current.news.allSatisfy { if case .waitingForBoard = $0 { true } else { false } })
        #expect(host.current.otherOpeners.isEmpty)
    }

    @Test(arguments: [("pull", 1), ("bump", 0)])
    func deliberatePullFiresOnceABumpNever(_ name: String, _ fires: Int) throws {
        let script = try #require(Scenarios.named(name))
        let board = try Firmware.board(motion: Self.motion(script, seed: 7))
        defer { board.stop() }
        let host = try RunningHost(port: try #require(board.serialPath))
        defer { _ = host.finish() }
        try Self.start(board, after: host)

        let end = UInt64((script.duration + 0.7) * 1_000_000)
        try #require(board.waitFor(timeout: .seconds(90)) { $0.simulatedMicros >= end } != nil)
        // The host has digested the samples up to the end of the script.
        try #require(host.waitFor { $0.ticks.last.map { $0.timeMicros >= end - 300_000 } ?? false } != nil)
        let summary = try #require(host.finish())
        let state = host.current
        #expect(state.fires == fires, "\(name): \(state.fires) fires")
        #expect(summary.counters.fires == UInt64(fires))
        #expect(state.ticks.contains { $0.engaged }, "\(name) reaches the ribbon and engages it")
        #expect(summary.counters.lostFrames == 0 && summary.counters.errors == 0)
    }

    /// With `dtrResets`, like an Uno: opening the port pulses DTR, which resets the
    /// board, so after the replug the host hears the boot HELLO. Without (DTR not
    /// wired), the host may reopen while the firmware boots: the boot HELLO went to
    /// no one and the HOST_HELLO arrives before the UART listens, so samples come
    /// with no HELLO before them; the host must carry on all the same.
    @Test(arguments: [true, false])
    func resetAndReplugRecoverWithThePhysicsKept(dtrResets: Bool) throws {
        let link = NSTemporaryDirectory() + "tiltsim-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let board = try Firmware.board(link: link, motion: Self.motion(Self.moveThenRest, seed: 3), resetOnConnect: dtrResets)
        defer { board.stop() }
        let host = try RunningHost(port: link, openItself: true) { $0.settings.dtr = dtrResets ? .assert : .leave }
        defer { _ = host.finish() }
        try Self.start(board, after: host)

        // The view has moved and come to rest.
        try #require(host.waitFor(seconds: 60) { $0.ticks.last.map { $0.timeMicros >= 4_000_000 } ?? false } != nil)
        let before = host.current
        let rested = try #require(before.ticks.last)
        #expect(rested.viewportX > 0 && rested.viewportY > 0)

        // Reset button: a new HELLO, ticks go on from the same place.
        board.reset()
        let afterReset = host.waitFor { s in s.hellos > before.hellos && s.ticks.count >= before.ticks.count + 60 }
        if afterReset == nil {
            let s = host.current
            Issue.record("after reset(): hellos \(s.hellos) (before \(before.hellos)), ticks \(s.ticks.count) (before \(before.ticks.count)), errors in \(String(describing: s.snapshot?.counters))")
        }
        try #require(afterReset != nil, "HELLO and ticks after reset()")
        let resumed = try #require(afterReset?.ticks[before.ticks.count...].first { _ in true })
        #expect(abs(resumed.viewportX - rested.viewportX) <= 2 && abs(resumed.viewportY - rested.viewportY) <= 2,
                "physics kept across the reset: \(rested.viewportX),\(rested.viewportY) → \(resumed.viewportX),\(resumed.viewportY)")

        // USB replug at the same link: device gone, reconnected, HELLO, ticks again.
        let beforeUnplug = host.current
        let lastBefore = try #require(beforeUnplug.ticks.last)
        board.unplug()
        try #require(host.waitFor { s in s.news.contains(.deviceGone(reconnecting: true)) } != nil,
                     "the host reports deviceGone")
        try board.plugIn()
        let back = host.waitFor { s in
            s.news.contains(.boardConfirmed)
                && (s.hellos > beforeUnplug.hellos || !dtrResets) && s.ticks.count >= beforeUnplug.ticks.count + 60
        }
        if back == nil {
            let s = host.current
            Issue.record("after plugIn(): news \(s.news), hellos \(s.hellos) (before \(beforeUnplug.hellos)), ticks \(s.ticks.count) (before \(beforeUnplug.ticks.count)), board \(board.currentStatus.state) \(board.currentStatus.bytesToAVR) bytes in, \(board.currentStatus.bytesFromAVR) out, \(board.currentStatus.droppedSerialOutput) dropped")
        }
        let after = try #require(back, "reconnected, HELLO and ticks after plugIn()")
        let first = after.ticks[beforeUnplug.ticks.count]
        #expect(abs(first.viewportX - lastBefore.viewportX) <= 2 && abs(first.viewportY - lastBefore.viewportY) <= 2,
                "physics kept across the replug: \(lastBefore.viewportX),\(lastBefore.viewportY) → \(first.viewportX),\(first.viewportY)")
        #expect(first.timeMicros > lastBefore.timeMicros, "the physics' timeline carries on")
        let news = after.news.filter {
            if case .trouble = $0 { false } else { true }  // not connection news (a reset mid-frame is one damaged frame)
        }
        // Reopened by name, nothing written until the board spoke, then confirmed.
        #expect(news == [.waitingForBoard, .deviceGone(reconnecting: true), .reopened(verified: false), .boardConfirmed])
        #expect(after.otherOpeners.isEmpty)

        let summary = try #require(host.finish())
        #expect(summary.counters.lostFrames == 0, "\(summary.counters)")
        #expect(summary.counters.hellos >= (dtrResets ? 3 : 2))
    }
}
