#if canImport(Glibc)
import Glibc
#endif
import Testing
import TiltCore
import TiltMotion
import TiltPhysics
import WireProtocol
@testable import TiltPipeline

/// The drawer through the pure pipeline: bytes from the board in, events and
/// the DRAWER/PIN frames for the board out (docs/protocol.md, "Sending the
/// drawer and the pins").
@Suite struct DrawerSessionTests {
    static func session(pins: [Pin] = []) -> HostSession {
        var settings = PhysicsSettings()
        settings.ribbonCenterX = 64  // the grab point is over the ribbon with the viewport at (0, 0)
        let engine = try! TiltEngine(settings: settings, geometry: Fixture.geometry, ribbonArt: Fixture.ribbonMask, drawerItems: 8)
        return HostSession(engine: engine, hostTileID: Fixture.tileID, format: .binaryProtocol, pins: pins)
    }

    /// Drives `session` with SAMPLE frames at 200 Hz; `pose` picks each pose from
    /// the time (s) and the last tick; returns every event.
    static func drive(_ session: inout HostSession, seconds: Double, start: Int = 0,
                      _ pose: (Double, Tick?) -> Pose) -> [HostEvent] {
        var events: [HostEvent] = []
        for i in 0..<Int(seconds * 200) {
            let t = Double(i) / 200
            let n = start + i
            let frame = SampleFrame(sequence: UInt8(truncatingIfNeeded: n), boardTime: UInt32(1_000_000 + n * 5000) & 0xFF_FFFF,
                                    raw: RawSample(accel: pose(t, session.engine.lastTick).accelCounts()))
            session.receive(frame.encoded(), at: .zero) { events.append($0) }
        }
        return events
    }

    /// A hand in stages, each held until its condition holds on the last tick.
    struct Stages {
        var stages: [(pose: Pose, until: (Tick, Double) -> Bool)]
        var index = 0, since = 0.0
        mutating func pose(_ t: Double, _ last: Tick?) -> Pose {
            while index < stages.count, let last, stages[index].until(last, t - since) {
                index += 1
                since = t
            }
            return index < stages.count ? stages[index].pose : Pose.rest
        }
    }

    static let rest = Pose.rest

    static func scenes(_ events: [HostEvent]) -> [SceneWire] {
        events.compactMap { if case .sceneFrames(let w) = $0 { w } else { nil } }
    }

    @Test func pullOutAndDropReportTheirEventsAndTheBoardGetsThePin() throws {
        var session = Self.session()
        var hand = Stages(stages: [
            (Pose(back: 0), { tick, _ in tick.drawer.shown > 0 }),
            (Self.rest, { tick, held in tick.drawer.shown == 22 && held > 0.6 }),
            (Pose(back: 30, right: -20), { tick, _ in tick.drawer.current == 2 }),
            (Self.rest, { _, held in held > 0.6 }),
            (Pose(back: 15), { tick, _ in tick.drawer.dragged != nil }),
            (Pose(back: 15, right: -10), { _, held in held > 0.5 }),
            (Self.rest, { tick, held in tick.drawer.isClosed && held > 1.5 }),
        ])
        let events = Self.drive(&session, seconds: 12) { hand.pose($0, $1) }
        #expect(hand.index == hand.stages.count)

        let drawerEvents = events.filter {
            switch $0 {
            case .drawer, .pulledOut, .pinned: true
            default: false
            }
        }
        try #require(drawerEvents.count == 4, "\(drawerEvents)")
        guard case .drawer(let opened, true) = drawerEvents[0], case .pulledOut(_, 2) = drawerEvents[1],
              case .pinned(let dropped, let pin, let all) = drawerEvents[2], case .drawer(let closed, false) = drawerEvents[3] else {
            Issue.record("events out of order: \(drawerEvents)")
            return
        }
        #expect(opened.fired && opened.drawerEvents.opened)
        #expect(closed == dropped && pin.item == 2 && all == [pin])
        #expect(session.pins.pins == [pin] && session.counters.pinsDropped == 1)
        // Each event follows its tick (and the tick's frames).
        let pinIndex = try #require(events.firstIndex { if case .pinned = $0 { true } else { false } })
        guard case .sceneFrames(let wire) = events[pinIndex - 1], case .tick(let tick, _) = events[pinIndex - 2] else {
            Issue.record("the pin's tick and frames do not precede it")
            return
        }
        #expect(tick == dropped)
        // The drop tick tells the board the pin count and the new slot at once.
        #expect(wire.drawer?.pinCount == 1 && wire.pin == PinFrame(slot: 0, pin))

        // While the drawer showed, every tick carried a DRAWER frame; after the drop, with a
        // pin on the map, every tick carries DRAWER and PIN.
        let ticks = events.compactMap { if case .tick(let t, _) = $0 { t } else { nil } }
        let scenes = Self.scenes(events)
        #expect(scenes.count == ticks.count - ticks.firstIndex { $0.fired }! - 1, "from the tick after the fire (0 rows showing on it)")
        #expect(scenes.allSatisfy { $0.drawer != nil })
        let afterDrop = scenes.drop { $0.drawer?.pinCount == 0 }
        #expect(afterDrop.count > 20 && afterDrop.allSatisfy { $0.pin == PinFrame(slot: 0, pin) && $0.drawer?.pinCount == 1 })
        // What the board was told: the map, the pin, the drawer closed.
        let slot = session.scene.drawer[pin: 0]
        #expect(slot.item == 2 && Int(slot.x) == pin.x && Int(slot.y) == pin.y)
        #expect(session.scene.drawer.pinCount == 1 && session.scene.drawer.shown == 0)
        let lastSent = events.last { if case .tick = $0 { true } else { false } }
        guard case .tick(_, let lastWire)? = lastSent else { Issue.record("no tick"); return }
        #expect(session.scene.offsets == lastWire.frame)
        // The DRAWER frames carried what the ticks said.
        let dragging = scenes.compactMap(\.drawer).filter { $0.dragItem != DrawerFrame.noItem }
        #expect(!dragging.isEmpty && dragging.allSatisfy { $0.dragItem == 2 && $0.shown == 22 && $0.current == 2 })
    }

    @Test func aHostThatNeverOpensTheDrawerSendsNothingMore() {
        var session = Self.session()
        let events = Self.drive(&session, seconds: 4) { t, _ in Pose(back: 30 - 20 * sin(t * 3), right: 15 * cos(t * 2)) }
        #expect(events.contains { if case .tick = $0 { true } else { false } })
        #expect(Self.scenes(events).isEmpty)
    }

    @Test func aClosedDrawerIsRepeatedForASecondThenNoLonger() {
        var session = Self.session()
        var hand = Stages(stages: [
            (Pose(back: 0), { tick, _ in tick.drawer.shown > 0 }),
            (Self.rest, { tick, held in tick.drawer.shown == 22 && held > 0.6 }),
            (Pose(back: 0), { tick, _ in tick.drawerEvents.closed }),  // the ribbon's slot is current: a second fire
            (Self.rest, { _, held in held > 3 }),
        ])
        let events = Self.drive(&session, seconds: 9) { hand.pose($0, $1) }
        #expect(hand.index == hand.stages.count)
        let scenes = Self.scenes(events).compactMap(\.drawer)
        let idle = scenes.drop { !$0.isIdle }
        #expect(idle.count == SceneSync.repeats, "\(idle.count) idle DRAWER frames after closing")
        #expect(idle.allSatisfy { $0 == DrawerFrame(height: 22, shown: 0, scroll: 0, current: 0xFF, dragItem: 0xFF, dragLeft: 0, dragTop: 0, pinCount: 0) })
        #expect(session.pins.isEmpty && !events.contains { if case .pulledOut = $0 { true } else { false } })
    }

    @Test func pinsFromEarlierGoToTheBoardSlotBySlotAndAgainAfterItsHello() {
        let kept = [Pin(item: 0, x: 10, y: 20), Pin(item: 5, x: 300, y: 100), Pin(item: 7, x: 500, y: 250)]
        var session = Self.session(pins: kept)
        let first = Self.scenes(Self.drive(&session, seconds: 0.3) { _, _ in Self.rest })
        #expect(first.prefix(9).map { $0.pin?.slot } == [0, 1, 2, 0, 1, 2, 0, 1, 2])
        #expect(first.allSatisfy { $0.drawer?.pinCount == 3 && $0.drawer?.shown == 0 })
        for k in 0..<3 {
            let slot = session.scene.drawer[pin: k]
            #expect(Int(slot.item) == kept[k].item && Int(slot.x) == kept[k].x && Int(slot.y) == kept[k].y)
        }
        // The board says HELLO (a reset): it has no pins now; they go again from slot 0.
        session.receive(Fixture.hello(rate: 200).encoded(), at: .zero) { _ in }
        #expect(session.scene.drawer == .empty)
        let again = Self.scenes(Self.drive(&session, seconds: 0.2, start: 60) { _, _ in Self.rest })
        #expect(again.prefix(3).map { $0.pin?.slot } == [0, 1, 2])
        // Removing one renumbers the later slots: those go first.
        session.removePin(at: 0)
        let after = Self.scenes(Self.drive(&session, seconds: 0.1, start: 100) { _, _ in Self.rest })
        #expect(after.first?.drawer?.pinCount == 2 && after.prefix(2).map { $0.pin?.slot } == [0, 1])
        #expect(session.scene.drawer[pin: 0].item == 5 && session.scene.drawer[pin: 1].item == 7)
    }
}
