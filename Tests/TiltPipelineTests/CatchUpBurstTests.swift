import Testing
import TiltCore
import TiltMotion
import TiltPhysics
import WireProtocol
@testable import TiltPipeline

/// A sample after a gap (a board that stalled, a hostile board whose clock
/// leaps) completes a burst of ticks at once. Every tick still runs and is
/// reported (JSON, hooks), but only the last one's view goes to the board: the
/// others are out of date before it could draw them, and a 3 s stall would
/// otherwise write about 100 OFFSETS (1.5 KB, 130 ms of a 115200-baud line)
/// into a board whose receive buffer holds 64 bytes.
@Suite struct CatchUpBurstTests {
    static let second: UInt64 = 1_000_000

    @Test func aSampleAfterAGapSendsOnlyTheLastTicksView() throws {
        var h = DriverHarness()
        h.start()
        for (t, b) in BoardStream.samples(rateHz: 1000, seconds: 1) { h.link.schedule(b, at: t) }
        // The board stalls 3 s, then carries on where it was.
        let resumed = BoardStream.samples(
            rateHz: 1000, seconds: 1, hostStart: 1_000 + 4 * Self.second, boardStart: 5_000 + 4_000_000,
            firstSequence: 1000, hello: false)
        for (t, b) in resumed { h.link.schedule(b, at: t) }
        h.run(until: 6 * Self.second)

        let ticks: [(tick: Tick, wire: OffsetsWire)] = h.actions.compactMap {
            if case .event(.tick(let tick, let wire)) = $0.action { (tick, wire) } else { nil }
        }
        // Engine time is board time here (no HELLO after the first).
        let lastBefore: UInt64 = 5_000 + 999_000, firstAfter: UInt64 = 5_000 + 4_000_000
        let burst = ticks.filter { $0.tick.time.micros > lastBefore && $0.tick.time.micros <= firstAfter }
        #expect(burst.count == 100, "3 s of 30 ms ticks")
        #expect(ticks.filter(\.tick.superseded).map(\.tick) == burst.dropLast().map(\.tick))
        #expect(h.driver.session.counters.ticks == UInt64(ticks.count), "every tick is still reported")
        try #require(h.offsets.count == ticks.count - 99, "one OFFSETS per burst")
        #expect(h.offsets == ticks.filter { !$0.tick.superseded }.map(\.wire.frame))
    }

    /// A fire on a superseded tick is not lost: its flag rides on the OFFSETS
    /// the burst sends, and the DRAWER it opens goes out once, after that.
    @Test func aFireInsideABurstRidesOnTheViewSent() throws {
        var settings = PhysicsSettings()
        settings.ribbonCenterX = 64  // the grab point is over the ribbon with the viewport at (0, 0)
        let engine = try TiltEngine(settings: settings, geometry: Fixture.geometry, ribbonArt: Fixture.ribbonMask, drawerItems: 8)
        var session = HostSession(engine: engine, hostTileID: Fixture.tileID, format: .binaryProtocol)
        var events: [HostEvent] = []
        // 200 Hz: rest for half a second, start a pull, then a 2 s stall holding it.
        func sample(_ n: Int, at micros: UInt32, _ pose: Pose) {
            let frame = SampleFrame(sequence: UInt8(truncatingIfNeeded: n), boardTime: micros, raw: RawSample(accel: pose.accelCounts()))
            session.receive(frame.encoded(), at: .zero) { events.append($0) }
        }
        for n in 0..<110 { sample(n, at: UInt32(1_000_000 + n * 5000), n < 100 ? .rest : Pose(back: 0)) }
        let beforeGap = events.count
        sample(110, at: UInt32(1_000_000 + 109 * 5000 + 2_000_000), Pose(back: 0))
        let burst = events[beforeGap...]

        let ticks: [(tick: Tick, wire: OffsetsWire)] = burst.compactMap { if case .tick(let t, let w) = $0 { (t, w) } else { nil } }
        try #require(ticks.count > 60)
        #expect(ticks.dropLast().allSatisfy(\.tick.superseded) && !ticks.last!.tick.superseded)
        let fire = try #require(ticks.firstIndex { $0.tick.fired }, "the held pull fires during the stall")
        #expect(fire < ticks.count - 1, "on a superseded tick")
        #expect(ticks.last!.wire.frame.flags.contains(.fired))
        #expect(burst.filter { if case .fired = $0 { true } else { false } }.count == 1)
        let scenes = burst.compactMap { if case .sceneFrames(let w) = $0 { w } else { nil } }
        #expect(scenes.count == 1 && scenes[0].drawer.map { !$0.isIdle } == true, "one DRAWER, the open drawer's")
        #expect(session.scene.offsets == ticks.last!.wire.frame)
    }
}
