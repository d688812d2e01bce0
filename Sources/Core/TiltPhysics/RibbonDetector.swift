import TiltCore

/// Recipe 2-8's pull control brought to tilt (docs/physics.md).
///
/// The ribbon hangs from the content's top edge. A pull engages when the
/// viewport sits at its top edge, the tilt pushes past it, and the grab point
/// (the display's centre column, top row) lies over ribbon art with alpha above
/// 85. While engaged, the push stretches the ribbon instead of scrolling; above
/// 75 points it fires once and rolls back over 0.3 s, and it cannot engage again
/// until the push stops. Released earlier, it rolls back and nothing fires.
/// Until the first engagement it wiggles 10 points at 4, 8 and 12 s.
///
/// Quantities are Q16 (points, pixels); time is board µs.
public struct RibbonDetector: Sendable {
    /// Wiggles before the first engagement (at 4, 8 and 12 s).
    public static let maxWiggles = 3

    /// The per-tick constants, resolved from settings and geometry once.
    struct Constants: Sendable {
        var leftX: Int  // art's left column at rest, content px
        var restVisible: Int64  // Q16 px
        var pixelsPerPoint: Int64  // Q16
        var stretchPerOverscroll: Int64  // Q16 points per Q32-normalized unit, premultiplied by content travel
        var limit: Int64  // Q16 points
        var threshold: Int64  // Q16 points
        var rollback: Int64  // µs
        var grabAlpha: UInt8
        var wiggleDepth: Int64  // Q16 points
        var wiggleHalf: Int64  // µs
        var wiggleStarts: (Int64, Int64, Int64)  // µs after start; -1 = none
        var swayPerG: Int64  // Q16 px per g
        var swayLimit: Int64  // whole px
        var grabColumn: Int  // display column of the grab point
    }

    enum Phase: Sendable, Equatable {
        case resting
        case engaged
        case rollingBack(from: Int64, startedAt: UInt64)
    }

    /// The ribbon's art (the host passes the shipped ribbon.pgm).
    public let art: AlphaMask
    let c: Constants
    var phase: Phase = .resting
    /// Stretch now, Q16 points.
    var stretch: Int64 = 0
    /// False from a fire until the push stops.
    var armed = true
    /// True once a pull has engaged: no more wiggles.
    var wigglesCancelled = false
    /// Board time the wiggle schedule counts from.
    var startTime: UInt64 = 0

    /// A ribbon at rest for `art` hung where `settings` and `geometry` put it.
    public init(art: AlphaMask, settings: PhysicsSettings, geometry: ContentGeometry) {
        self.art = art
        let centre = settings.ribbonCenterX ?? geometry.contentWidth / 2
        let starts = settings.wiggleStartsMicros.prefix(Self.maxWiggles).map(Int64.init)
        func start(_ i: Int) -> Int64 { i < starts.count ? starts[i] : -1 }
        c = Constants(
            leftX: centre - art.width / 2,
            restVisible: Int64(settings.ribbonRestVisible) << 16,
            pixelsPerPoint: FixedPoint.fixed(settings.ribbonPixelsPerPoint, bits: 16),
            stretchPerOverscroll: FixedPoint.fixed(settings.stretchPointsPerPixel, bits: 16)
                * Int64(geometry.maxViewportY),
            limit: FixedPoint.fixed(settings.stretchLimit, bits: 16),
            threshold: FixedPoint.fixed(settings.fireThreshold, bits: 16),
            rollback: Int64(settings.rollbackMicros),
            grabAlpha: UInt8(clamping: settings.grabAlphaThreshold),
            wiggleDepth: FixedPoint.fixed(settings.wiggleDepth, bits: 16),
            wiggleHalf: Int64(settings.wiggleHalfMicros),
            wiggleStarts: (start(0), start(1), start(2)),
            swayPerG: FixedPoint.fixed(settings.swayPixelsPerG, bits: 16),
            swayLimit: Int64(settings.swayLimit),
            grabColumn: geometry.displayWidth / 2)
    }

    /// Starts the wiggle clock (the first sample's time).
    public mutating func start(at t: UInt64) { startTime = t }

    /// What one tick of the ribbon produced.
    public struct Output: Hashable, Sendable {
        /// Stretch plus wiggle, Q16 points.
        public var stretch: Int64
        /// Content column of the art's left edge, px.
        public var ribbonX: Int
        /// Content row one past the art's last row, px (0: hidden).
        public var ribbonBottom: Int
        /// A pull is under way.
        public var engaged: Bool
        /// The pull passed the threshold on this tick.
        public var fired: Bool
        /// A discoverability wiggle is under way.
        public var wiggling: Bool
    }

    /// One tick at board time `t`.
    /// - Parameters:
    ///   - pastTop: how far the y offset would have gone past the top this tick,
    ///     Q32 normalized (0 when the tilt does not push past it).
    ///   - viewportX, viewportY: the viewport after the tick, content px.
    ///   - roll: sideways tilt, Q32 g (for the sway).
    /// - Returns: the ribbon's state, and whether a pull engaged on this tick
    ///   (smooth mode then restarts its y gain).
    public mutating func tick(
        at t: UInt64, pastTop: Int64, viewportX: Int, viewportY: Int, roll: Int64
    ) -> (output: Output, engagedNow: Bool) {
        let pushing = pastTop > 0
        if !pushing { armed = true }
        var fired = false
        var engagedNow = false
        let overscroll = FixedPoint.mulShift(pastTop, c.stretchPerOverscroll, 32)  // Q16 points

        switch phase {
        case .resting:
            if pushing && armed && viewportY == 0 && grabbed(viewportX: viewportX, t: t, roll: roll) {
                phase = .engaged
                engagedNow = true
                wigglesCancelled = true
                stretch = min(c.limit, overscroll)
            }
        case .engaged:
            if pushing {
                stretch = min(c.limit, stretch + overscroll)
            } else {
                phase = .rollingBack(from: stretch, startedAt: t)
            }
        case .rollingBack(let from, let started):
            let elapsed = Int64(clamping: t >= started ? t - started : 0)  // any UInt64 time: no trap
            if elapsed >= c.rollback {
                stretch = 0
                phase = .resting
            } else {
                stretch = from * (c.rollback - elapsed) / c.rollback
            }
        }
        if phase == .engaged && stretch > c.threshold {
            fired = true
            armed = false
            phase = .rollingBack(from: stretch, startedAt: t)
        }
        let wiggle = wiggleOffset(at: t)
        let total = stretch + wiggle
        return (Output(
            stretch: total, ribbonX: ribbonX(roll: roll), ribbonBottom: bottom(points: total),
            engaged: phase == .engaged, fired: fired, wiggling: wiggle > 0), engagedNow)
    }

    /// The art's left column now, content px (sway included).
    func ribbonX(roll: Int64) -> Int {
        guard c.swayPerG != 0 else { return c.leftX }
        let swayQ16 = FixedPoint.mulShift(roll, c.swayPerG, 32)  // Q16 px
        let sway = FixedPoint.divRound(swayQ16, FixedPoint.q16One)
        return c.leftX + Int(max(-c.swayLimit, min(c.swayLimit, sway)))
    }

    /// Content row one past the art's last row for a pull of `points` (Q16).
    func bottom(points: Int64) -> Int {
        Int((c.restVisible + FixedPoint.mulShift(points, c.pixelsPerPoint, 16) + (1 << 15)) >> 16)
    }

    /// Whether the grab point lies over art with alpha above the threshold, with
    /// the ribbon where it is drawn now (wiggle included).
    func grabbed(viewportX: Int, t: UInt64, roll: Int64) -> Bool {
        let drawnBottom = bottom(points: stretch + wiggleOffset(at: t))
        let column = viewportX + c.grabColumn - ribbonX(roll: roll)
        let row = art.height - drawnBottom  // grab row is content row 0 (viewport at top)
        return art[column, row] > c.grabAlpha
    }

    /// The wiggle's depth at `t`, Q16 points: down over the first half, up over
    /// the second; 0 once a pull has engaged.
    func wiggleOffset(at t: UInt64) -> Int64 {
        guard !wigglesCancelled, t >= startTime else { return 0 }
        let since = Int64(clamping: t - startTime)  // any UInt64 time: no trap
        func one(_ start: Int64) -> Int64 {
            guard start >= 0, since >= start else { return 0 }
            let e = since - start
            if e < c.wiggleHalf { return c.wiggleDepth * e / c.wiggleHalf }
            if e < 2 * c.wiggleHalf { return c.wiggleDepth * (2 * c.wiggleHalf - e) / c.wiggleHalf }
            return 0
        }
        return max(one(c.wiggleStarts.0), one(c.wiggleStarts.1), one(c.wiggleStarts.2))
    }
}
