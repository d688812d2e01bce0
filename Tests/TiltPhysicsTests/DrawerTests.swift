import Testing
import TiltCore
import TiltMotion
import TiltPhysics

/// The drawer through the real engine (closed-loop hands at 200 Hz) and, for
/// the rules a hand cannot easily reach, the `Drawer` value on its own.
@Suite struct DrawerTests {
    /// The ribbon hangs where the grab point is with the viewport at (0, 0)
    /// (as in RibbonTests); eight items, the shipped icon count.
    static func engine(_ configure: (inout PhysicsSettings) -> Void = { _ in }) -> TiltEngine {
        var settings = PhysicsSettings()
        settings.ribbonCenterX = 64
        configure(&settings)
        return try! TiltEngine(settings: settings, geometry: Fixtures.geometry, ribbonArt: Fixtures.ribbon, drawerItems: 8)
    }

    static let px: Int64 = 1 << 16

    /// A hand that plays stages, each until its condition holds on the last tick.
    struct Stages {
        typealias Stage = (pose: Pose, until: (Tick, Double) -> Bool)
        var stages: [Stage]
        var index = 0
        var since = 0.0

        mutating func pose(_ t: Double, _ last: Tick?) -> Pose {
            while index < stages.count, let last, stages[index].until(last, t - since) {
                index += 1
                since = t
            }
            return index < stages.count ? stages[index].pose : Hand.rest
        }
    }

    /// Pull the ribbon (forward 30°) until it fires, then rest until open.
    static var open: [Stages.Stage] { [
        (Pose(back: 0), { tick, _ in tick.drawer.shown > 0 }),
        (Hand.rest, { tick, held in tick.drawer.shown == tick.drawer.height && held > 0.6 }),
    ] }

    @Test func aFireOpensItOverPointThreeSecondsAndTheMapHoldsStill() {
        var e = Self.engine()
        var hand = Stages(stages: Self.open + [
            (Pose(back: 30, right: -20), { _, held in held > 1.5 }),  // sideways: scrolls the row, not the map
            (Pose(back: 50), { _, held in held > 1 }),  // back: would scroll the map down
        ])
        let ticks = Hand.drive(&e, seconds: 6) { hand.pose($0, $1) }
        let fire = try! #require(ticks.firstIndex { $0.fired })
        #expect(ticks[fire].drawerEvents.opened && ticks.filter { $0.drawerEvents.opened }.count == 1)
        // Slides down linearly: 22 rows over 10 ticks of 30 ms.
        for k in 0...12 {
            #expect(ticks[fire + k].drawer.shown == min(22, (22 * k * 30 + 150) / 300), "tick \(k) after the fire")
        }
        let held = ticks[fire...]
        #expect(held.allSatisfy { $0.viewportX == ticks[fire].viewportX && $0.viewportY == 0 }, "the map holds still")
        #expect(ticks[(fire + 1)...].allSatisfy { $0.drawer.shown > 0 && $0.drawerEvents.pulledOut == nil })
        // The row scrolled instead: from the ribbon's slot (at the right end) toward the
        // items, left side down moving it as it would move the map (toward smaller x).
        let scrolls = ticks[(fire + 1)...].map(\.drawer.scroll)
        #expect(scrolls.first! == 106 && scrolls.max()! == 106 && scrolls.min()! < 106)
        #expect(held.contains { $0.drawer.current != nil })
    }

    @Test func aDownGesturePullsTheCurrentItemOutAndTheDropMakesAPin() throws {
        var e = Self.engine()
        var hand = Stages(stages: Self.open + [
            (Pose(back: 30, right: -20), { tick, _ in tick.drawer.current == 4 }),  // left side down: scroll to item 4
            (Hand.rest, { _, held in held > 0.6 }),
            (Pose(back: 15), { tick, _ in tick.drawer.dragged != nil }),  // forward 15°: "down"
            (Pose(back: 15, right: 12), { _, held in held > 0.8 }),  // steer it
            (Hand.rest, { tick, held in tick.drawer.isClosed && held > 0.5 }),
            (Pose(back: 30, right: 20), { _, held in held > 1 }),  // the map scrolls again
        ])
        let ticks = Hand.drive(&e, seconds: 14) { hand.pose($0, $1) }
        #expect(hand.index == hand.stages.count, "the hand got through every stage")

        let pulled = try #require(ticks.firstIndex { $0.drawerEvents.pulledOut != nil })
        #expect(ticks.filter { $0.drawerEvents.pulledOut != nil }.count == 1)
        #expect(ticks[pulled].drawerEvents.pulledOut == 4 && ticks[pulled - 1].drawer.current == 4)
        let dragged = try #require(ticks[pulled].drawer.dragged)
        #expect(dragged.item == 4 && dragged.top == 22, "it appears right below the drawer")
        #expect(dragged.left == 4 * 20 + 2 - ticks[pulled].drawer.scroll, "under its slot")

        let drop = try #require(ticks.firstIndex { $0.drawerEvents.dropped != nil })
        #expect(ticks.filter { $0.drawerEvents.dropped != nil }.count == 1)
        let during = ticks[(pulled + 1)..<drop]
        #expect(during.allSatisfy { $0.drawer.dragged?.item == 4 && $0.drawer.scroll == ticks[pulled].drawer.scroll },
                "the row does not scroll while dragging")
        #expect(during.allSatisfy { $0.viewportX == ticks[pulled].viewportX && $0.viewportY == ticks[pulled].viewportY })
        // It followed the tilt: down (forward) and left (right side down moves the content left).
        let last = try #require(ticks[drop - 1].drawer.dragged)
        #expect(last.top > dragged.top && last.left < dragged.left)
        let pin = try #require(ticks[drop].drawerEvents.dropped)
        #expect(pin == Pin(item: 4, x: ticks[drop].viewportX + last.left + 8, y: ticks[drop].viewportY + last.top + 8))
        #expect(ticks[drop].drawerEvents.closed && ticks[drop].drawer.dragged == nil)
        // Closes over 0.3 s, then the map scrolls as before.
        #expect(ticks[drop + 10].drawer.isClosed && !ticks[drop + 9].drawer.isClosed)
        #expect(ticks.last!.viewportX > ticks[drop].viewportX)
        #expect(!ticks.contains { $0.fired && $0.timeMicros > ticks[pulled].timeMicros }, "the ribbon never fired again")
    }

    /// Sideways swings with the pitch held within the dead zone (±2°): the
    /// sideways displacement swings through 0 again and again, but nothing goes down.
    @Test func sidewaysSwingsInTheOpenDrawerNeverPullAnythingOut() {
        for seed in 0..<4 {
            var e = Self.engine()
            var swings: [Stages.Stage] = [(Pose(back: 30, right: -20), { tick, _ in tick.drawer.scroll < 30 })]
            for k in 0..<10 {
                let roll = (k % 2 == 0 ? 1.0 : -1.0) * Double(18 + 4 * ((k + seed) % 3))
                swings.append((Pose(back: 30 - Double(seed % 2 == 0 ? 2 : -2), right: roll), { _, held in held > 0.7 }))
            }
            var hand = Stages(stages: Self.open + swings)
            let ticks = Hand.drive(&e, seconds: 12) { hand.pose($0, $1) }
            #expect(hand.index == hand.stages.count)
            #expect(!ticks.contains { $0.drawerEvents.pulledOut != nil || $0.drawerEvents.dropped != nil }, "seed \(seed)")
            #expect(Set(ticks.compactMap(\.drawer.current)).count >= 3, "the swings scrolled through items")
            #expect(ticks.last!.drawer.shown == 22)
        }
    }

    @Test func aSecondFireOnTheRibbonSlotClosesIt() throws {
        var e = Self.engine()
        var hand = Stages(stages: Self.open + [
            (Pose(back: 0), { tick, _ in tick.drawerEvents.closed }),  // the ribbon's slot is current on opening
            (Hand.rest, { tick, held in held > 0.8 }),
        ])
        let ticks = Hand.drive(&e, seconds: 6) { hand.pose($0, $1) }
        #expect(ticks.filter(\.fired).count == 2)
        let second = try #require(ticks.lastIndex { $0.fired })
        #expect(ticks[second].drawerEvents.closed)
        #expect(!ticks.contains { $0.drawerEvents.pulledOut != nil })
        #expect(ticks.last!.drawer.isClosed)
        // Open, the ribbon hung below the drawer from the row's right end (its slot at the centre).
        let open = try #require(ticks.first { $0.drawer.shown == 22 && !$0.engaged })
        #expect(open.ribbonBottom == 22 + 15 && open.ribbonX == 64 - 6)
    }

    @Test func theRibbonSlidesBackToItsMapPlaceAsTheDrawerCloses() throws {
        var e = Self.engine()
        var hand = Stages(stages: Self.open + [
            (Pose(back: 30, right: -25), { tick, _ in tick.drawer.scroll < 40 }),
            (Hand.rest, { _, held in held > 0.5 }),
            (Pose(back: 30, right: 25), { tick, _ in tick.drawer.scroll >= 106 }),  // back to the ribbon
            (Hand.rest, { _, held in held > 0.5 }),
            (Pose(back: 0), { tick, _ in tick.drawerEvents.closed }),
            (Hand.rest, { _, held in held > 0.8 }),
        ])
        let ticks = Hand.drive(&e, seconds: 12) { hand.pose($0, $1) }
        #expect(hand.index == hand.stages.count)
        // Scrolled away, the ribbon moved with its slot (off to the right of the centre).
        #expect(ticks.contains { $0.drawer.shown == 22 && $0.ribbonX > 100 })
        let closed = try #require(ticks.lastIndex { $0.drawerEvents.closed })
        #expect(ticks[closed + 10].drawer.isClosed && ticks[closed + 10].ribbonX == 58 && ticks[closed + 10].ribbonBottom <= 15 + 20)
    }

    // MARK: The Drawer value on its own

    static func layout() -> DrawerLayout { DrawerLayout(itemCount: 8, height: 22, displayWidth: 128, displayHeight: 64) }

    /// One tick of a bare drawer at tick index `k` (30 ms apart).
    static func tick(_ d: inout Drawer, _ k: UInt64, fired: Bool = false, _ gesture: PullOutGesture.Phase = .idle,
                     _ direction: PullOutGesture.Direction? = nil, step: (Int64, Int64) = (0, 0)) -> DrawerEvents {
        d.tick(at: k * 30_000, fired: fired, gesture: gesture, direction: direction, viewStepX: step.0, viewStepY: step.1,
               ribbonMapLeft: 58, ribbonWidth: 12, viewportX: 100, viewportY: 0)
    }

    @Test func onlyAGestureThatStartsWithTheDrawerOpenPullsOut() {
        var d = Drawer(layout: Self.layout())
        #expect(Self.tick(&d, 1, fired: true, .moving, .down).opened)
        // The pull that fired goes on and even scrolls to an item: no pull-out, however "down" it looks.
        for k in 2...20 {
            let e = Self.tick(&d, UInt64(k), .moving, .down, step: (-4 * Self.px, 0))
            #expect(e.pulledOut == nil)
        }
        #expect(d.phase == .open && d.view.current != nil)
        // It ends; a new one starts with the drawer open: that one pulls out.
        _ = Self.tick(&d, 21, .ended)
        let current = d.view.current
        #expect(Self.tick(&d, 22, .started, nil).pulledOut == nil)
        #expect(Self.tick(&d, 23, .moving, .down).pulledOut == current)
    }

    @Test func aGestureStartedWhileItSlidesDoesNotPullOut() {
        var d = Drawer(layout: Self.layout())
        _ = Self.tick(&d, 1, fired: true)
        _ = Self.tick(&d, 2, .started)  // sliding: not eligible
        for k in 3...15 { _ = Self.tick(&d, UInt64(k), .moving, nil, step: (-4 * Self.px, 0)) }
        #expect(d.phase == .open && d.view.current != nil)
        #expect(Self.tick(&d, 16, .moving, .down).pulledOut == nil)
    }

    @Test func theRowScrollsWithinItsRangeAndMarksTheItemAtTheCentre() {
        let layout = Self.layout()
        #expect(layout.scrollRange == -54...106)
        #expect(layout.item(atScroll: -54) == 0 && layout.item(atScroll: -45) == 0 && layout.item(atScroll: -44) == 1)
        #expect(layout.item(atScroll: 95) == 7 && layout.item(atScroll: 96) == nil && layout.slot(atScroll: 106) == 8)
        var d = Drawer(layout: layout)
        _ = Self.tick(&d, 1, fired: true)
        for k in 2...12 { _ = Self.tick(&d, UInt64(k)) }
        #expect(d.scrollPixels == 106 && d.view.current == nil)
        for k in 13...80 { _ = Self.tick(&d, UInt64(k), step: (-3 * Self.px, 0)) }
        #expect(d.scrollPixels == -54 && d.view.current == 0)
        for k in 81...200 { _ = Self.tick(&d, UInt64(k), step: (5 * Self.px, 0)) }
        #expect(d.scrollPixels == 106)
    }

    @Test func theDraggedItemStaysOnTheDisplay() {
        var d = Drawer(layout: Self.layout())
        _ = Self.tick(&d, 1, fired: true)
        for k in 2...20 { _ = Self.tick(&d, UInt64(k), step: (-3 * Self.px, 0)) }
        _ = Self.tick(&d, 21, .started)
        #expect(Self.tick(&d, 22, .moving, .down).pulledOut == 7)
        for k in 23...100 { _ = Self.tick(&d, UInt64(k), .moving, .down, step: (-7 * Self.px, -5 * Self.px)) }
        #expect(d.view.dragged?.left == 112 && d.view.dragged?.top == 48)
        let e = Self.tick(&d, 101, .ended)
        // The item pulled out at tick 22 (7, checked there) is the one dropped.
        #expect(e.dropped == Pin(item: 7, x: 100 + 112 + 8, y: 0 + 48 + 8) && e.closed)
    }
}
