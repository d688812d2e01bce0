/// Recipe 1-12's swipe test brought to tilt (docs/physics.md, "The pull-out
/// gesture").
///
/// A gesture is one excursion of the tilt away from rest: it starts on the
/// tick the tilt leaves the rest zone on either axis and ends on the tick it is
/// back inside a narrower zone on both (hysteresis, so a tilt hovering at the
/// edge does not start and end a gesture every tick). Its displacement is what
/// the tilt would have moved a finger on the screen since the start: display
/// pixels, Q16, positive right and down (the content's motion, the opposite of
/// the viewport's). On every tick the recipe's four-way test classifies it,
/// afresh: there is no failure latch, so a gesture that misses at first can
/// still qualify later.
public struct PullOutGesture: Hashable, Sendable {
    /// What `SwipeRule.classify` recognizes.
    public enum Direction: String, Hashable, Sendable {
        /// The content moved up, down, left or right (display px), by the recipe's four-way test.
        case up, down, left, right
    }

    /// What a tick did to the gesture.
    public enum Phase: Hashable, Sendable {
        /// No gesture (the tilt rests).
        case idle
        /// A gesture started on this tick.
        case started
        /// A gesture goes on.
        case moving
        /// The gesture ended on this tick (the tilt came back to rest).
        case ended
    }

    /// The narrowest start zone, Q32 g (0.03 g ≈ 1.7°): with a physics dead zone
    /// below it, sensor noise alone would start gestures.
    public static let minimumZone: Int64 = 128_849_019  // 0.03 × 2^32
    /// How much further in the tilt must come back before the gesture ends, Q32 g
    /// (0.02 g ≈ 1.1°).
    public static let hysteresis: Int64 = 85_899_346  // 0.02 × 2^32

    /// A gesture starts when either axis's tilt is beyond this, Q32 g.
    public let startZone: Int64
    /// It ends when both are within this, Q32 g.
    public let endZone: Int64

    /// A gesture is under way.
    public private(set) var active = false
    /// Displacement since the gesture started, Q16 display px (right, down).
    public private(set) var dx: Int64 = 0
    /// Downward displacement since the gesture started, Q16 display px.
    public private(set) var dy: Int64 = 0

    /// - Parameter deadZone: the physics' rest dead zone, Q32 g (`PhysicsSettings.deadZone`).
    public init(deadZone: Int64) {
        startZone = max(deadZone, Self.minimumZone)
        endZone = startZone - Self.hysteresis
    }

    /// One tick. `tiltX`, `tiltY`: the tilt from the rest pose per axis, Q32 g
    /// (before any dead zone or scale); `stepX`, `stepY`: how far this tick's
    /// tilt moves a finger, Q16 display px.
    public mutating func tick(tiltX: Int64, tiltY: Int64, stepX: Int64, stepY: Int64) -> Phase {
        let x = tiltX.magnitude, y = tiltY.magnitude
        if !active {
            guard x > startZone.magnitude || y > startZone.magnitude else { return .idle }
            active = true
            dx = stepX
            dy = stepY
            return .started
        }
        if x < endZone.magnitude && y < endZone.magnitude {
            active = false
            return .ended
        }
        dx = Self.clamped(dx + stepX)
        dy = Self.clamped(dy + stepY)
        return .moving
    }

    /// The four-way test on the displacement so far.
    public var direction: Direction? { SwipeRule.classify(dx: dx, dy: dy) }

    /// Displacements stay within ±2^40 px (far beyond any display), so sums never overflow.
    static func clamped(_ v: Int64) -> Int64 { max(-(1 << 56), min(1 << 56, v)) }
}

/// Recipe 1-12's rule: a swipe counts in a direction when, from its start, it
/// has moved more than 16 points along that direction and less than 12 across
/// it. Both comparisons are strict. Points are display pixels here.
public enum SwipeRule {
    /// More than this along the swipe (the recipe's 16 points), px.
    public static let travel: Int64 = 16
    /// Less than this across it (the recipe's 12 points), px.
    public static let drift: Int64 = 12

    /// The direction of a displacement (Q16 display px, right and down
    /// positive), or nil when it qualifies in none.
    public static func classify(dx: Int64, dy: Int64) -> PullOutGesture.Direction? {
        let along = travel << 16, across = UInt64(drift << 16)
        if dy > along && dx.magnitude < across { return .down }
        if dy < -along && dx.magnitude < across { return .up }
        if dx > along && dy.magnitude < across { return .right }
        if dx < -along && dy.magnitude < across { return .left }
        return nil
    }
}
