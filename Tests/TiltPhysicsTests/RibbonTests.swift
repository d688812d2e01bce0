import Testing
import TiltCore
import TiltMotion
import TiltPhysics

@Suite struct RibbonTests {
    /// The ribbon hung where the grab point is when the viewport is at (0, 0):
    /// display column 64 is art column 6, the middle of the shipped art.
    static func engine(_ configure: (inout PhysicsSettings) -> Void = { _ in }) -> TiltEngine {
        Fixtures.engine {
            $0.ribbonCenterX = 64
            configure(&$0)
        }
    }

    /// Rest for `restFirst` s, tilt forward to `back` (degrees back from upright) for `hold` s, then rest.
    static func pull(back: Double, restFirst: Double = 0.5, hold: Double) -> (Double, Tick?) -> Pose {
        { t, _ in t >= restFirst && t < restFirst + hold ? Pose(back: back) : Hand.rest }
    }

    @Test func aDeliberatePullFiresExactlyOnceWithinASecond() {
        var e = Self.engine()
        let ticks = Hand.drive(&e, seconds: 4, Self.pull(back: 0, hold: 2.5))
        let fired = ticks.filter(\.fired)
        #expect(fired.count == 1)
        let fire = fired[0]
        #expect(fire.seconds - 0.5 <= 1.0, "fired \(fire.seconds - 0.5) s into the pull")
        #expect(fire.stretch > Fixed(integer: 75))
        #expect(fire.viewportY == 0 && !fire.engaged)
        // Engaged before it fired, stretching down from rest.
        let before = ticks.prefix { !$0.fired }
        #expect(before.contains { $0.engaged })
        #expect(fire.ribbonBottom > 15 && fire.ribbonBottom <= 15 + 20)
        #expect(before.allSatisfy { $0.viewportY == 0 })
    }

    /// Moving up fast into the top edge and stopping there within a quarter of a
    /// second (a bump) stretches the ribbon a little but never fires.
    @Test(arguments: [0.0, -20.0, -40.0]) func aBumpIntoTheTopEdgeNeverFires(_ back: Double) {
        var e = Self.engine()
        var topReached: Double? = nil
        let ticks = Hand.drive(&e, seconds: 8) { t, last in
            if t < 2 { return Pose(back: 60) }  // back toward face-up: scroll down
            if let last, last.viewportY == 0, topReached == nil { topReached = t }
            if let top = topReached, t > top + 0.25 { return Hand.rest }
            return Pose(back: back)  // forward: scroll up into the top
        }
        #expect(ticks.contains { $0.viewportY > 20 })  // it did scroll away first
        #expect(topReached != nil)
        #expect(ticks.contains { $0.engaged })  // the bump did engage...
        #expect(!ticks.contains { $0.fired })  // ...but did not fire
    }

    @Test func releasedBelowTheThresholdItRollsBackOverPointThreeSeconds() {
        var e = Self.engine()
        var letGo = false
        let ticks = Hand.drive(&e, seconds: 3) { t, last in
            if let last, last.stretch > Fixed(integer: 30) { letGo = true }
            return t >= 0.5 && !letGo ? Pose(back: 0) : Hand.rest
        }
        #expect(!ticks.contains { $0.fired })
        let released = ticks.indices.first { i in i > 0 && ticks[i - 1].engaged && !ticks[i].engaged }!
        let from = ticks[released].stretch.raw
        #expect(from > Fixed(integer: 30).raw && from < Fixed(integer: 75).raw)
        // Linear back to 0 over 300 ms: 10 ticks of 30 ms.
        for k in 1...12 {
            let tick = ticks[released + k]
            let expected = k >= 10 ? 0 : Int(from) * (10 - k) / 10
            #expect(abs(Int(tick.stretch.raw) - expected) <= 1, "tick \(k) after release")
        }
        #expect(ticks[released + 10].ribbonBottom == 15)
    }

    @Test func afterFiringItRollsBackAndOnlyRearmsOnceReleased() {
        var e = Self.engine()
        // Pull and keep pushing for 3 s; rest 1 s; pull again.
        let ticks = Hand.drive(&e, seconds: 7) { t, _ in
            (t >= 0.5 && t < 3.5) || (t >= 4.5 && t < 6.5) ? Pose(back: 0) : Hand.rest
        }
        let fired = ticks.filter(\.fired)
        #expect(fired.count == 2)
        #expect(fired[0].seconds < 1.5 && fired[1].seconds > 4.5)
        // Rolled back in 0.3 s and stayed at rest while the push went on.
        let first = ticks.firstIndex(where: \.fired)!
        #expect(ticks[first + 10].stretch == .zero)
        let holding = ticks.filter { $0.seconds > fired[0].seconds + 0.4 && $0.seconds < 3.5 }
        #expect(!holding.isEmpty && holding.allSatisfy { !$0.engaged && $0.stretch == .zero })
    }

    @Test func wigglesAtFourEightAndTwelveSecondsThenNoMore() {
        var e = Fixtures.engine()
        let ticks = Hand.drive(&e, hz: 100, seconds: 20) { _, _ in Hand.rest }
        let wiggling = ticks.filter(\.wiggling)
        #expect(!wiggling.isEmpty)
        for tick in wiggling {
            let s = tick.seconds
            let inWindow = [4.0, 8.0, 12.0].contains { s > $0 && s < $0 + 0.5 }
            #expect(inWindow, "wiggling at \(s) s")
        }
        for start in [4.0, 8.0, 12.0] {
            let window = ticks.filter { $0.seconds > start && $0.seconds < start + 0.5 }
            #expect(window.allSatisfy { $0.wiggling })
            // 10 points down at the middle: 2 px at 0.2 px/pt.
            #expect(window.map(\.ribbonBottom).max() == 15 + 2)
            let deepest = window.max { $0.stretch < $1.stretch }!
            #expect(abs(deepest.seconds - (start + 0.25)) < 0.031)
            #expect(deepest.stretch <= Fixed(integer: 10))
        }
        let rest = ticks.filter { !$0.wiggling }
        #expect(rest.allSatisfy { $0.ribbonBottom == 15 && $0.stretch == .zero })
        #expect(ticks.allSatisfy { $0.ribbonX == 256 - 6 })
    }

    @Test func theFirstEngagementCancelsTheWiggles() {
        var e = Self.engine()
        let ticks = Hand.drive(&e, hz: 100, seconds: 14, Self.pull(back: 0, restFirst: 5, hold: 0.4))
        #expect(ticks.contains { $0.wiggling && $0.seconds < 5 })
        #expect(ticks.contains { $0.engaged })
        #expect(!ticks.contains { $0.wiggling && $0.seconds > 5 })
    }

    @Test func aGrabInTheNotchDoesNotEngage() {
        // Only the bottom 4 art rows show: the grab point (content row 0) is art
        // row 32, transparent in columns 4...7 (the notch).
        #expect(Fixtures.ribbon[6, 32] == 0 && Fixtures.ribbon[2, 32] > 85)
        var inNotch = Self.engine { $0.ribbonRestVisible = 4 }
        let missed = Hand.drive(&inNotch, seconds: 3, Self.pull(back: 0, hold: 2))
        #expect(!missed.contains { $0.engaged || $0.fired })
        // The same pull 4 px to the side lands on the art (column 2) and fires.
        var onArt = Self.engine { $0.ribbonRestVisible = 4; $0.ribbonCenterX = 68 }
        let hit = Hand.drive(&onArt, seconds: 3, Self.pull(back: 0, hold: 2))
        #expect(hit.filter(\.fired).count == 1)
    }

    @Test func noEngagementAwayFromTheRibbonOrBelowTheTop() {
        // The default ribbon hangs at the content's centre, far from viewport x 0.
        var away = Fixtures.engine()
        let ticks = Hand.drive(&away, seconds: 3, Self.pull(back: 0, hold: 2))
        #expect(!ticks.contains { $0.engaged || $0.fired })
        // Over the ribbon but below the top: tilting back scrolls, no pull.
        var below = Self.engine()
        let back = Hand.drive(&below, seconds: 3, Self.pull(back: 70, hold: 2))
        #expect(back.contains { $0.viewportY > 0 })
        #expect(!back.contains { $0.engaged || $0.fired })
    }

    @Test func recipeModeDrivesTheRibbonToo() {
        var e = Self.engine { $0.mode = .recipe }
        // The recipe's y axis wakes only once az < −0.5: tilt back first.
        let ticks = Hand.drive(&e, seconds: 6) { t, _ in
            t < 0.2 ? Pose(back: 40) : t < 4 ? Pose(back: 0) : Hand.rest
        }
        #expect(ticks.filter(\.fired).count == 1)
    }

    @Test func swayMovesTheRibbonWithSidewaysTilt() {
        var e = Fixtures.engine { $0.swayPixelsPerG = 4 }
        let ticks = Hand.drive(&e, seconds: 2) { _, _ in Pose(back: 30, right: 30) }
        #expect(ticks.last!.ribbonX == 250 + 2)  // 0.5 g × 4 px/g = 2 px, the limit
    }
}
