import TiltCore

/// Which integrator turns tilt into scroll offsets.
public enum IntegratorMode: String, Sendable, CaseIterable {
    /// Recipe 1-5 exactly as its sample code computes in C (Float32, the integer
    /// `abs` truncation, SIGN(0) = +1, gain update per sample). See docs/physics.md.
    case recipe
    /// What the recipe intends, in fixed point and independent of the sensor rate.
    case smooth
}

/// Every tunable of the tilt integrator and the ribbon detector, with documented
/// defaults (docs/physics.md says where each comes from). Hosts read them from
/// options and config files through their own settings table (tiltserial:
/// TiltserialSettings' `SettingSpec.all`, one row per property here).
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
    /// Rest pose's lean, degrees with the right side down: the sideways tilt
    /// counted as level. Default 0 (`tiltserial calibrate` measures it).
    public var restRollDegrees: Double = 0

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

    // MARK: Drawer

    /// The drawer's rows when open (about a third of the 64-row display).
    public var drawerHeight: Int = 22

    /// The documented defaults.
    public init() {}
}

extension PhysicsSettings {
    /// A setting out of range; `description` is one line naming the fix.
    public struct InvalidSetting: Error, Hashable, Sendable, CustomStringConvertible {
        /// The setting's key, e.g. "tickMicros".
        public let name: String
        /// What it must be, e.g. "between 1000 and 1000000 µs".
        public let requirement: String
        /// "physics setting 'name' must be requirement".
        public var description: String { "physics setting '\(name)' must be \(requirement)" }
    }

    /// Throws the first setting outside its range (`Limits`) or its cross-checks
    /// (gainCap ≥ baseGain, fireThreshold ≤ stretchLimit).
    public func validate() throws(InvalidSetting) {
        typealias L = Limits
        func check(_ ok: Bool, _ name: String, _ requirement: String) throws(InvalidSetting) {
            if !ok { throw InvalidSetting(name: name, requirement: requirement) }
        }
        func check(_ value: Int, _ range: ClosedRange<Int>, _ name: String, _ unit: String = "") throws(InvalidSetting) {
            try check(range.contains(value), name, "between \(range.lowerBound) and \(range.upperBound)\(unit)")
        }
        // NaN is in no range.
        func check(_ value: Double, _ range: ClosedRange<Double>, _ name: String, _ unit: String = "") throws(InvalidSetting) {
            try check(range.contains(value), name, "between \(L.text(range.lowerBound)) and \(L.text(range.upperBound))\(unit)")
        }
        try check(tickMicros, L.tickMicros, "tickMicros", " µs")
        try check(baseGain, L.gain, "baseGain")
        try check(gainRamp, L.gain, "gainRamp")
        try check(gainCap, L.gain, "gainCap")
        try check(gainCap >= baseGain, "gainCap", "at least baseGain (\(L.text(baseGain)))")
        try check(deadZone, L.deadZone, "deadZone", " g")
        try check(yScale, L.yScale, "yScale")
        try check(filterMicros, L.filterMicros, "filterMicros", " µs")
        try check(restAngleDegrees, L.restAngleDegrees, "restAngleDegrees", " degrees")
        try check(restRollDegrees, L.restRollDegrees, "restRollDegrees", " degrees")
        if let ribbonCenterX { try check(ribbonCenterX, L.ribbonCenterX, "ribbonCenterX", " px") }
        try check(ribbonRestVisible, L.ribbonRestVisible, "ribbonRestVisible", " rows")
        try check(ribbonPixelsPerPoint, L.ribbonPixelsPerPoint, "ribbonPixelsPerPoint")
        try check(stretchPointsPerPixel, L.stretchPointsPerPixel, "stretchPointsPerPixel")
        try check(stretchLimit, L.stretch, "stretchLimit", " points")
        try check(fireThreshold, L.fireThreshold, "fireThreshold", " points")
        try check(fireThreshold <= stretchLimit, "fireThreshold", "at most stretchLimit (\(L.text(stretchLimit)))")
        try check(rollbackMicros, L.rollbackMicros, "rollbackMicros", " µs")
        try check(grabAlphaThreshold, L.grabAlphaThreshold, "grabAlphaThreshold")
        try check(wiggleDepth, L.wiggleDepth, "wiggleDepth", " points")
        try check(wiggleHalfMicros, L.wiggleHalfMicros, "wiggleHalfMicros", " µs")
        try check(wiggleStartsMicros.count <= L.maxWiggles, "wiggleStartsMicros", "at most \(L.maxWiggles) times")
        try check(wiggleStartsMicros.allSatisfy(L.wiggleStartMicros.contains), "wiggleStartsMicros",
                  "times between \(L.wiggleStartMicros.lowerBound) and \(L.wiggleStartMicros.upperBound) µs")
        try check(swayPixelsPerG, L.swayPixelsPerG, "swayPixelsPerG")
        try check(swayLimit, L.swayLimit, "swayLimit", " px")
        try check(drawerHeight, L.drawerHeight, "drawerHeight", " rows")
    }

    /// The accepted range of every setting, in the settings' own units (µs,
    /// g, points, content px). Chosen so that no arithmetic in `TiltEngine`
    /// can overflow for any combination of values inside them and any sensor
    /// reading (Tests/TiltPhysicsTests/SettingsExtremesTests runs them all).
    /// Hosts show these ranges in their help and refuse values outside them.
    public enum Limits {
        /// `tickMicros`, µs: 1 ms to 1 s.
        public static let tickMicros = 1_000...1_000_000
        /// `baseGain`, `gainRamp`, `gainCap`: offset per 30 ms per g.
        public static let gain = 0.0...0.25
        /// `deadZone`, g.
        public static let deadZone = 0.0...1
        /// `yScale`, a ratio.
        public static let yScale = 0.0...8
        /// `filterMicros`, µs (0: no filter).
        public static let filterMicros = 0...1_000_000
        /// `restAngleDegrees`, degrees from face-up.
        public static let restAngleDegrees = -90.0...90
        /// `restRollDegrees`, degrees, right side down.
        public static let restRollDegrees = -90.0...90
        /// `ribbonCenterX`, content px: what OFFSETS' 16-bit unsigned columns can carry.
        public static let ribbonCenterX = 0...65_535
        /// `ribbonRestVisible`, art rows.
        public static let ribbonRestVisible = 0...4096
        /// `ribbonPixelsPerPoint`, display px per ribbon point.
        public static let ribbonPixelsPerPoint = 0.0...16
        /// `stretchPointsPerPixel`, ribbon points per content px.
        public static let stretchPointsPerPixel = 0.0...1000
        /// `stretchLimit`, ribbon points.
        public static let stretch = 0.0...10_000
        /// `fireThreshold`, ribbon points (and at most `stretchLimit`); above 0 so a
        /// ribbon at rest never fires.
        public static let fireThreshold = 0.01...10_000
        /// `rollbackMicros`, µs.
        public static let rollbackMicros = 1...10_000_000
        /// `grabAlphaThreshold`: an alpha (exclusive), so at most 254.
        public static let grabAlphaThreshold = 0...254
        /// `wiggleDepth`, ribbon points.
        public static let wiggleDepth = 0.0...1000
        /// `wiggleHalfMicros`, µs.
        public static let wiggleHalfMicros = 1...10_000_000
        /// Each of `wiggleStartsMicros`, µs after the first sample: up to an hour.
        public static let wiggleStartMicros = 0...3_600_000_000
        /// How many `wiggleStartsMicros` at most.
        public static let maxWiggles = RibbonDetector.maxWiggles
        /// `swayPixelsPerG`, content px per g.
        public static let swayPixelsPerG = -1000.0...1000
        /// `swayLimit`, content px.
        public static let swayLimit = 0...1000
        /// `drawerHeight`, display rows: room for its icons, marker and border, at most the display.
        public static let drawerHeight = DrawerLayout.minimumHeight...64

        /// A bound as people write it: 0.25, 90, 10000 (no ".0", no exponent).
        public static func text(_ value: Double) -> String { NumberText.plain(value) }
    }
}
