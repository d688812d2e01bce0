import Testing
import TiltCore
import TiltPhysics

/// Recipe 1-12's four-way test and the gesture that feeds it
/// (docs/physics.md, "The pull-out gesture").
@Suite struct PullOutGestureTests {
    static let px: Int64 = 1 << 16  // one display pixel, Q16
    static let lsb: Int64 = 1  // the smallest step, 1/65536 px

    /// The recipe's rule read straight from recipes.md, in exact rationals
    /// (Q16 integers compared against 16 and 12 whole pixels).
    static func reference(dx: Int64, dy: Int64) -> PullOutGesture.Direction? {
        func more(_ v: Int64, than points: Int64) -> Bool { v > points * px }
        func less(_ v: Int64, than points: Int64) -> Bool { abs(v) < points * px }
        if more(dy, than: 16) && less(dx, than: 12) { return .down }
        if more(-dy, than: 16) && less(dx, than: 12) { return .up }
        if more(dx, than: 16) && less(dy, than: 12) { return .right }
        if more(-dx, than: 16) && less(dy, than: 12) { return .left }
        return nil
    }

    @Test func theBoundariesAreStrict() {
        let sixteen = 16 * Self.px, twelve = 12 * Self.px
        // Along: exactly 16 is not enough, one step more is.
        #expect(SwipeRule.classify(dx: 0, dy: sixteen) == nil)
        #expect(SwipeRule.classify(dx: 0, dy: sixteen + Self.lsb) == .down)
        #expect(SwipeRule.classify(dx: 0, dy: -sixteen) == nil)
        #expect(SwipeRule.classify(dx: 0, dy: -sixteen - Self.lsb) == .up)
        #expect(SwipeRule.classify(dx: sixteen, dy: 0) == nil)
        #expect(SwipeRule.classify(dx: sixteen + Self.lsb, dy: 0) == .right)
        #expect(SwipeRule.classify(dx: -sixteen, dy: 0) == nil)
        #expect(SwipeRule.classify(dx: -sixteen - Self.lsb, dy: 0) == .left)
        // Across: exactly 12 is too much, one step less is fine, either side.
        for across in [twelve, -twelve] {
            #expect(SwipeRule.classify(dx: across, dy: sixteen + Self.lsb) == nil)
            #expect(SwipeRule.classify(dx: across - across.signum() * Self.lsb, dy: sixteen + Self.lsb) == .down)
            #expect(SwipeRule.classify(dx: sixteen + Self.lsb, dy: across) == nil)
            #expect(SwipeRule.classify(dx: sixteen + Self.lsb, dy: across - across.signum() * Self.lsb) == .right)
        }
        // Both far: no direction (a diagonal).
        #expect(SwipeRule.classify(dx: 20 * Self.px, dy: 20 * Self.px) == nil)
        #expect(SwipeRule.classify(dx: 0, dy: 0) == nil)
    }

    @Test func everyDisplacementOnAGridAroundTheBoundariesAgreesWithTheRule() {
        // Whole and fractional pixels within ±2 LSB of every boundary, and a coarse sweep.
        var values: [Int64] = []
        for boundary in [0, 12, 16] as [Int64] {
            for sign in [1, -1] as [Int64] {
                for delta in [-2, -1, 0, 1, 2] as [Int64] { values.append(sign * (boundary * Self.px + delta)) }
            }
        }
        for p in stride(from: -30 * Self.px, through: 30 * Self.px, by: Int(Self.px / 4)) { values.append(p) }
        var counts: [PullOutGesture.Direction?: Int] = [:]
        for dx in values {
            for dy in values {
                let got = SwipeRule.classify(dx: dx, dy: dy)
                #expect(got == Self.reference(dx: dx, dy: dy), "dx \(dx) dy \(dy)")
                counts[got, default: 0] += 1
            }
        }
        // The grid reaches every outcome (the test can see a wrong one).
        for direction in [PullOutGesture.Direction.up, .down, .left, .right] { #expect((counts[direction] ?? 0) > 100) }
        #expect((counts[nil] ?? 0) > 1000)
    }

    /// A gesture fed generated per-tick steps classifies its running total on
    /// every tick, with no failure latch.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func generatedGesturesClassifyTheirRunningDisplacement(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let outside: Int64 = 1 << 31  // 0.5 g: well outside the rest zone
        for _ in 0..<200 {
            var g = PullOutGesture(deadZone: 214_748_365)  // 0.05 g
            var sx: Int64 = 0, sy: Int64 = 0
            let ticks = Int(rng.next() % 40) + 1
            for k in 0..<ticks {
                let stepX = Int64(rng.next() % UInt64(6 * Self.px)) - 3 * Self.px
                let stepY = Int64(rng.next() % UInt64(4 * Self.px)) - Self.px
                let phase = g.tick(tiltX: outside, tiltY: 0, stepX: stepX, stepY: stepY)
                #expect(phase == (k == 0 ? .started : .moving))
                sx += stepX
                sy += stepY
                #expect(g.dx == sx && g.dy == sy)
                #expect(g.direction == Self.reference(dx: sx, dy: sy))
            }
        }
    }

    @Test func aGestureThatMissesAtFirstCanStillQualify() {
        var g = PullOutGesture(deadZone: 214_748_365)
        let tilt: Int64 = 1 << 31
        // Down 20 px and sideways 14 px: down enough, but too far across.
        _ = g.tick(tiltX: tilt, tiltY: tilt, stepX: 14 * Self.px, stepY: 20 * Self.px)
        #expect(g.direction == nil)
        // Back 3 px sideways: 11 px across now, still 20 down: it qualifies.
        _ = g.tick(tiltX: tilt, tiltY: tilt, stepX: -3 * Self.px, stepY: 0)
        #expect(g.direction == .down)
        // And drifting out again takes it away (the test runs afresh every tick).
        _ = g.tick(tiltX: tilt, tiltY: tilt, stepX: 2 * Self.px, stepY: 0)
        #expect(g.direction == nil)
    }

    @Test func aGestureStartsOutsideTheRestZoneAndEndsInsideANarrowerOne() {
        let deadZone: Int64 = 214_748_365  // 0.05 g
        var g = PullOutGesture(deadZone: deadZone)
        #expect(g.startZone == deadZone)
        #expect(g.endZone == deadZone - PullOutGesture.hysteresis)
        // Exactly at the start zone: still rest.
        #expect(g.tick(tiltX: deadZone, tiltY: -deadZone, stepX: 0, stepY: 0) == .idle)
        // Past it on one axis (either sign): a gesture starts, counting this tick's step.
        #expect(g.tick(tiltX: 0, tiltY: -deadZone - 1, stepX: 0, stepY: 5 * Self.px) == .started)
        #expect(g.active && g.dy == 5 * Self.px)
        // Hovering between the two zones keeps it going (hysteresis).
        for _ in 0..<5 { #expect(g.tick(tiltX: g.endZone, tiltY: deadZone - 1, stepX: 0, stepY: Self.px) == .moving) }
        #expect(g.dy == 10 * Self.px)
        // Exactly at the end zone on one axis: not yet back.
        #expect(g.tick(tiltX: 0, tiltY: g.endZone, stepX: 0, stepY: 0) == .moving)
        // Inside it on both: ended; the next one starts from zero.
        #expect(g.tick(tiltX: g.endZone - 1, tiltY: -(g.endZone - 1), stepX: 0, stepY: 0) == .ended)
        #expect(!g.active)
        #expect(g.tick(tiltX: 0, tiltY: 0, stepX: 0, stepY: 0) == .idle)
        #expect(g.tick(tiltX: deadZone + 1, tiltY: 0, stepX: Self.px, stepY: 0) == .started)
        #expect(g.dx == Self.px && g.dy == 0)
    }

    @Test func aSmallDeadZoneStillLeavesRoomForTheHysteresis() {
        let g = PullOutGesture(deadZone: 0)
        #expect(g.startZone == PullOutGesture.minimumZone)
        #expect(g.endZone > 0)
    }
}
