/// Which integrator turns tilt into scroll offsets.
public enum IntegratorMode: String, Codable, Sendable, CaseIterable {
    /// Recipe 1-5 exactly as its sample code computes in C (Float32, the integer
    /// `abs` truncation, SIGN(0) = +1, gain update per sample). See docs/physics.md.
    case recipe
    /// What the recipe intends, in fixed point and independent of the sensor rate.
    case smooth
}

/// Every tunable of the tilt integrator and the ribbon detector, with documented
/// defaults (docs/physics.md says where each comes from). Codable so a host can
/// load it from a config file; missing keys keep their defaults.
///
/// Floating point appears only here, at configuration time:
/// `TiltEngine` converts every value to fixed point once, and its per-sample and
/// per-tick arithmetic in smooth mode is integer only.
public struct PhysicsSettings: Hashable, Sendable {
    /// The integrator. Default: smooth.
    public var mode: IntegratorMode = .smooth
    /// The physics tick, µs of board time. Default 30 000 (the recipe's 0.03 s timer).
    public var tickMicros: Int = 30_000

    // MARK: Smooth mode

    /// Offset per 30 ms per g of tilt when a movement starts: the recipe's 0.005.
    public var baseGain: Double = 0.005
    /// Added to the gain every 30 ms while the tilt keeps its direction.
    public var gainRamp: Double = 0.0005
    /// The largest gain (offset per 30 ms per g).
    public var gainCap: Double = 0.015
    /// Tilt (g, about the sine of the angle) around the rest pose that counts as
    /// rest; the input outside it is shifted so the response starts at zero.
    public var deadZone: Double = 0.05
    /// The y input's scale relative to x: the recipe's `(az + 0.5) * 2`.
    public var yScale: Double = 2
    /// Time constant of the one-pole low-pass on the acceleration, µs of board time.
    public var filterMicros: Int = 50_000
    /// Rest pose: degrees from face-up toward face-forward. Default 60, where the
    /// recipe's `yy = (az + 0.5) * 2` is zero (az = −cos 60° = −0.5).
    public var restAngleDegrees: Double = 60

    // MARK: Ribbon

    /// Content column of the ribbon art's centre; nil = the content's centre.
    public var ribbonCenterX: Int? = nil
    /// Art rows showing at rest (the recipe shows 75 of 175 points). Default 15 of 36.
    public var ribbonRestVisible: Int = 15
    /// Display pixels per ribbon point. Default 0.2: a full 100-point pull is 20 px.
    public var ribbonPixelsPerPoint: Double = 0.2
    /// Ribbon points of stretch per content pixel the viewport would have
    /// scrolled past the top edge while engaged.
    public var stretchPointsPerPixel: Double = 2
    /// The largest stretch, points (the recipe's 175 − 75).
    public var stretchLimit: Double = 100
    /// A stretch above this fires (the recipe's 75).
    public var fireThreshold: Double = 75
    /// How long the ribbon takes to roll back to rest, µs (the recipe's 0.3 s).
    public var rollbackMicros: Int = 300_000
    /// The lowest alpha (exclusive) a grab must land on (the recipe's 85).
    public var grabAlphaThreshold: Int = 85
    /// Wiggle depth, points (the recipe's 10).
    public var wiggleDepth: Double = 10
    /// Each half of a wiggle, µs (the recipe's 0.25 s down, 0.25 s up).
    public var wiggleHalfMicros: Int = 250_000
    /// When the wiggles start, µs after the first sample (the recipe's 4, 8, 12 s).
    public var wiggleStartsMicros: [Int] = [4_000_000, 8_000_000, 12_000_000]
    /// Sideways sway of the ribbon, content pixels per g of sideways tilt. 0 = off.
    public var swayPixelsPerG: Double = 0
    /// The largest sway either way, content pixels.
    public var swayLimit: Int = 2

    /// The documented defaults.
    public init() {}
}

extension PhysicsSettings {
    /// A setting out of range; `description` is one line naming the fix.
    public struct InvalidSetting: Error, Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public let requirement: String
        public var description: String { "physics setting '\(name)' must be \(requirement)" }
    }

    /// Throws the first setting outside its range.
    public func validate() throws(InvalidSetting) {
        func check(_ ok: Bool, _ name: String, _ requirement: String) throws(InvalidSetting) {
            if !ok { throw InvalidSetting(name: name, requirement: requirement) }
        }
        try check((1_000...1_000_000).contains(tickMicros), "tickMicros", "between 1000 and 1000000 µs")
        try check(baseGain >= 0 && baseGain <= 0.25, "baseGain", "between 0 and 0.25")
        try check(gainRamp >= 0 && gainRamp <= 0.25, "gainRamp", "between 0 and 0.25")
        try check(gainCap >= baseGain && gainCap <= 0.25, "gainCap", "between baseGain and 0.25")
        try check(deadZone >= 0 && deadZone <= 1, "deadZone", "between 0 and 1 g")
        try check(yScale >= 0 && yScale <= 8, "yScale", "between 0 and 8")
        try check((0...1_000_000).contains(filterMicros), "filterMicros", "between 0 and 1000000 µs")
        try check(restAngleDegrees >= -90 && restAngleDegrees <= 90, "restAngleDegrees", "between -90 and 90")
        try check((0...4096).contains(ribbonRestVisible), "ribbonRestVisible", "between 0 and 4096 rows")
        try check(ribbonPixelsPerPoint >= 0 && ribbonPixelsPerPoint <= 16, "ribbonPixelsPerPoint", "between 0 and 16")
        try check(stretchPointsPerPixel >= 0 && stretchPointsPerPixel <= 1000, "stretchPointsPerPixel", "between 0 and 1000")
        try check(stretchLimit >= 0 && stretchLimit <= 10_000, "stretchLimit", "between 0 and 10000 points")
        try check(fireThreshold > 0 && fireThreshold <= stretchLimit, "fireThreshold", "above 0 and at most stretchLimit")
        try check((1...10_000_000).contains(rollbackMicros), "rollbackMicros", "between 1 and 10000000 µs")
        try check((0...254).contains(grabAlphaThreshold), "grabAlphaThreshold", "between 0 and 254")
        try check(wiggleDepth >= 0 && wiggleDepth <= 1000, "wiggleDepth", "between 0 and 1000 points")
        try check((1...10_000_000).contains(wiggleHalfMicros), "wiggleHalfMicros", "between 1 and 10000000 µs")
        try check(wiggleStartsMicros.count <= RibbonDetector.maxWiggles, "wiggleStartsMicros",
                  "at most \(RibbonDetector.maxWiggles) times")
        try check(wiggleStartsMicros.allSatisfy { (0...3_600_000_000).contains($0) }, "wiggleStartsMicros",
                  "times between 0 and 3600000000 µs")
        try check(swayPixelsPerG >= -1000 && swayPixelsPerG <= 1000, "swayPixelsPerG", "between -1000 and 1000")
        try check((0...1000).contains(swayLimit), "swayLimit", "between 0 and 1000 pixels")
    }
}

extension PhysicsSettings: Codable {
    enum CodingKeys: String, CodingKey {
        case mode, tickMicros, baseGain, gainRamp, gainCap, deadZone, yScale, filterMicros, restAngleDegrees
        case ribbonCenterX, ribbonRestVisible, ribbonPixelsPerPoint, stretchPointsPerPixel, stretchLimit
        case fireThreshold, rollbackMicros, grabAlphaThreshold, wiggleDepth, wiggleHalfMicros
        case wiggleStartsMicros, swayPixelsPerG, swayLimit
    }

    /// Decodes the keys present; every missing key keeps its default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var s = PhysicsSettings()
        func read<T: Decodable>(_ key: CodingKeys, _ value: inout T) throws {
            if let decoded = try c.decodeIfPresent(T.self, forKey: key) { value = decoded }
        }
        try read(.mode, &s.mode)
        try read(.tickMicros, &s.tickMicros)
        try read(.baseGain, &s.baseGain)
        try read(.gainRamp, &s.gainRamp)
        try read(.gainCap, &s.gainCap)
        try read(.deadZone, &s.deadZone)
        try read(.yScale, &s.yScale)
        try read(.filterMicros, &s.filterMicros)
        try read(.restAngleDegrees, &s.restAngleDegrees)
        s.ribbonCenterX = try c.decodeIfPresent(Int.self, forKey: .ribbonCenterX)
        try read(.ribbonRestVisible, &s.ribbonRestVisible)
        try read(.ribbonPixelsPerPoint, &s.ribbonPixelsPerPoint)
        try read(.stretchPointsPerPixel, &s.stretchPointsPerPixel)
        try read(.stretchLimit, &s.stretchLimit)
        try read(.fireThreshold, &s.fireThreshold)
        try read(.rollbackMicros, &s.rollbackMicros)
        try read(.grabAlphaThreshold, &s.grabAlphaThreshold)
        try read(.wiggleDepth, &s.wiggleDepth)
        try read(.wiggleHalfMicros, &s.wiggleHalfMicros)
        try read(.wiggleStartsMicros, &s.wiggleStartsMicros)
        try read(.swayPixelsPerG, &s.swayPixelsPerG)
        try read(.swayLimit, &s.swayLimit)
        self = s
    }
}
