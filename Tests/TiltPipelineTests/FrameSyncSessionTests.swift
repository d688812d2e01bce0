import Testing
import TiltCore
import TiltPhysics
import WireProtocol
@testable import TiltPipeline

/// Frame sync on the host (docs/protocol.md, "Frame sync"): smooth mode asks
/// for READY after HELLO and answers a READY with the map where the newest
/// sample puts it; recipe mode keeps the book's 30 ms tick alone.
@Suite struct FrameSyncSessionTests {
    /// A steady tilt to the right and forward, 1 kHz from board time 1000 µs on.
    static func steady(_ range: Range<Int>, accel: Axes3<Int16> = Axes3(x: -6000, y: 14000, z: 4000)) -> [UInt8] {
        var wire: [UInt8] = []
        for i in range {
            let raw = RawSample(accel: accel)
            SampleFrame(sequence: UInt8(truncatingIfNeeded: i), boardTime: 1000 + UInt32(i) * 1000, raw: raw).encode(into: &wire)
        }
        return wire
    }

    static func ready(idle: Bool = false, latch: UInt32 = 0) -> [UInt8] {
        ReadyFrame(boardTime: latch, flags: idle ? ReadyFrame.idleFlag : 0).encoded()
    }

    static func views(_ events: [HostEvent]) -> [OffsetsFrame] {
        events.compactMap { if case .view(let wire) = $0 { wire.frame } else { nil } }
    }

    @Test func smoothModeAsksForReadyAfterEveryHelloAndTheDriverWritesSync() {
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Fixture.hello().encoded() + Self.steady(0..<50) + Fixture.hello().encoded())
        #expect(out.events.filter { $0 == .frameSync }.count == 2)
        var actions: [HostAction] = []
        HostDriver.forward(.frameSync) { actions.append($0) }
        #expect(actions.first == .write(.sync), "SYNC goes to the board before anyone hears of it")
    }

    @Test func aReadyBetweenTicksGetsTheMapWhereTheNewestSamplePutsIt() throws {
        // Samples up to board time 2 000 000 µs: the last tick ran at 1 981 000
        // (every 30 ms from 1000), the next is due at 2 011 000, 19/30 of a period on.
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Fixture.hello().encoded() + Self.steady(0..<2000))
        let before = try #require(out.offsets.last)
        out.feed(&session, Self.ready())
        let views = Self.views(out.events)
        #expect(views.count == 1, "one view for one READY")
        let view = try #require(views.first)

        // Where the next tick puts the map, from a session that saw no READY and 31 more samples.
        var reference = Fixture.session()
        var next = Outbox()
        next.feed(&reference, Fixture.hello().encoded() + Self.steady(0..<2031))
        let after = try #require(next.offsets.last)
        #expect(after.viewportX > before.viewportX, "the steady tilt moves the map: \(before.viewportX) → \(after.viewportX)")

        // In between, in proportion to the time passed (19 of 30 ms), within a pixel.
        let expected = Double(before.viewportX) + Double(Int(after.viewportX) - Int(before.viewportX)) * 19 / 30
        #expect(abs(Double(view.viewportX) - expected) <= 1, "view \(view.viewportX), expected about \(expected)")
        let lowY = min(before.viewportY, after.viewportY), highY = max(before.viewportY, after.viewportY)
        #expect((lowY...highY).contains(view.viewportY))
        // The rest as the last tick left it; never a fire; the next sequence number.
        #expect(view.ribbonX == before.ribbonX && view.ribbonBottom == before.ribbonBottom)
        #expect(!view.flags.contains(.fired))
        #expect(view.sequence == before.sequence &+ 1)

        // A second READY with no new sample: the board has that view already.
        out.feed(&session, Self.ready())
        #expect(Self.views(out.events).count == 1)
    }

    /// On its right side (gravity along −x): the map runs right at speed.
    static let hard = Axes3<Int16>(x: -16384, y: 0, z: 0)

    @Test func samplesTakenBeforeTheAnnouncedLatchEachSendAFresherView() throws {
        // After 1.5 s on its side, READY says the board takes its next view at
        // board time 1 520 500 µs: the samples of 1 501 000 … 1 520 000 (1 kHz)
        // are taken before it, so each that moves the map sends the view it
        // puts the map at; the samples from 1 521 000 on send nothing (the
        // board has latched by then; its next READY starts the next chase).
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Fixture.hello().encoded() + Self.steady(0..<1500, accel: Self.hard) + Self.ready(latch: 1_520_500))
        #expect(Self.views(out.events).count == 1, "the READY itself is answered at once")
        var sentBeforeLatch = 0
        for i in 1500..<1540 {
            let told = try #require(session.scene.offsets)
            out.events.removeAll()
            out.feed(&session, Self.steady(i..<(i + 1), accel: Self.hard))
            let time = 1000 + i * 1000
            let now = try #require(session.engine.viewport(at: session.lastSampleTime))
            let moved = UInt16(now.x) != told.viewportX || UInt16(now.y) != told.viewportY
            let views = Self.views(out.events)
            let ticked = !out.offsets.isEmpty  // the tick's own OFFSETS told the board
            if time < 1_520_500 {
                if moved && !ticked {
                    #expect(views.count == 1, "sample at \(time) µs moved the map before the latch: a view")
                    if let view = views.first {
                        #expect(view.viewportX == UInt16(now.x) && view.viewportY == UInt16(now.y), "the newest sample's view")
                    }
                    sentBeforeLatch += views.count
                }
            } else {
                #expect(views.isEmpty, "sample at \(time) µs is from after the latch: no view until the next READY")
            }
        }
        // Not vacuous: the map moved (and a view went out) more than once in the window.
        #expect(sentBeforeLatch >= 2, "\(sentBeforeLatch) views before the latch")
    }

    @Test func afterAnIdleReadyTheFirstSampleThatMovesTheMapSendsIt() throws {
        var session = Fixture.session()
        var out = Outbox()
        // Lying still at the rest pose (halfway between face-up and face-forward): nothing moves.
        var still: [UInt8] = []
        for i in 0..<600 {
            let raw = RawSample(accel: Axes3(x: 0, y: 11585, z: -11585))
            SampleFrame(sequence: UInt8(truncatingIfNeeded: i), boardTime: 1000 + UInt32(i) * 1000, raw: raw).encode(into: &still)
        }
        out.feed(&session, Fixture.hello().encoded() + still + Self.ready(idle: true))
        #expect(Self.views(out.events).isEmpty, "the board shows the latest view already")

        // Tilted from sample 600 on, one sample at a time: the view goes out
        // with the first sample that moves the map from what the board was
        // last sent (a tick's OFFSETS included), not at the next tick.
        var sentAt: Int?
        for i in 600..<900 where sentAt == nil {
            let shown = try #require(session.scene.offsets)
            out.feed(&session, Self.steady(i..<(i + 1)))
            let now = try #require(session.engine.viewport(at: session.lastSampleTime))
            if let view = Self.views(out.events).first {
                sentAt = i
                #expect(view.viewportX == UInt16(now.x) && view.viewportY == UInt16(now.y), "the newest sample's view")
            } else if !out.offsets.isEmpty, out.offsets.last == session.scene.offsets {
                continue  // a tick just told the board
            } else {
                #expect(UInt16(now.x) == shown.viewportX && UInt16(now.y) == shown.viewportY, "sample \(i) moved the map and nothing was sent")
            }
        }
        let at = try #require(sentAt, "a view was sent once the map moved")
        // One view per READY: the samples after it send nothing more.
        out.feed(&session, Self.steady((at + 1)..<(at + 20)))
        #expect(Self.views(out.events).count == 1)
    }

    @Test func recipeModeNeverAsksAndIgnoresReady() {
        var settings = PhysicsSettings()
        settings.mode = .recipe
        var session = Fixture.session(settings)
        var out = Outbox()
        let stream = Fixture.samples(1000)
        out.feed(&session, Fixture.hello().encoded() + Array(stream.wire.prefix(stream.wire.count / 2)) + Self.ready()
                 + Array(stream.wire.suffix(from: stream.wire.count / 2)))
        #expect(!out.events.contains(.frameSync))
        #expect(Self.views(out.events).isEmpty)
        #expect(out.offsets == Fixture.expectedOffsets(stream.samples, engine: Fixture.engine(settings)), "the book's ticks, bit for bit")
    }
}
