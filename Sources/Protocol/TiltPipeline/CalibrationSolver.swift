import TiltCore

/// The sensor's mounting and the rest pose, from three still poses: rest
/// (held as one looks at it), tilted right (right side down) and tilted back
/// (toward face-up). Readings are gravity in g on the *sensor's* axes, in the
/// iOS convention (`SampleConverter` with the identity mapping).
///
/// - Board x is the sensor axis that changed most from rest to right, signed
///   so it grows with the right side down (iOS: gravity points to the low side).
/// - Board y and z: a sensor is a right-handed frame like the board, so with x
///   known four mountings remain, each turned 90° about x from the next; they
///   put the rest pose 90° apart in pitch. The one taken puts it between 15°
///   past flat and 75° (short of upright), where people hold a thing to look
///   at it (or lay it on a bench): the rest pose alone decides, so it must lie
///   in that range (docs/usage.md says so).
/// - The tilt back checks the two tilts: it must lower the pitch (toward
///   face-up) more than it leans sideways. A tilt to the left instead of the
///   right turns it the other way, as does a tilt forward.
///
/// Pitch is measured from face-up toward face-forward, roll with the right
/// side down, as `PhysicsSettings.restAngleDegrees`/`restRollDegrees` take them.
public enum CalibrationSolver {
    /// The mounting and rest pose the three poses give.
    public struct Result: Hashable, Sendable {
        /// Which sensor axis (and sign) is the board's x, y and z (`--axes`).
        public var axes: AxisMapping
        /// Rest pitch from face-up, degrees, to 0.1°.
        public var restAngleDegrees: Double
        /// Rest lean, right side down, degrees, to 0.1°.
        public var restRollDegrees: Double
        /// How far the tilt back turned (positive: toward face-up), degrees.
        public var backDegrees: Double
    }

    /// Why the three poses do not make a calibration; each names what the person did instead.
    public enum Problem: Error, Hashable, Sendable {
        /// The second pose differs from rest in more than one axis: not a sideways tilt.
        case notSideways
        /// The third pose turned toward upright (or the second was to the left).
        case tiltedForward(degrees: Double)
        /// The third pose leaned sideways more than it tilted back.
        case notBack
    }

    /// A tilt back must turn at least this far, degrees.
    public static let minimumBackDegrees = 8.0
    /// The rest pitches the mounting is chosen for: [−15°, 75°), centred here.
    public static let restCentreDegrees = 30.0

    /// Works out the mounting from the right tilt (x), the back tilt (y) and gravity at rest (z), then the rest pose in that mounting. Poses are mean gravity on the sensor's axes, g.
    public static func solve(rest: Axes3<Double>, right: Axes3<Double>, back: Axes3<Double>) throws(Problem) -> Result {
        // x: the axis that changed most, and clearly more than the other two together.
        let d = Axes3(x: right.x - rest.x, y: right.y - rest.y, z: right.z - rest.z)
        let xAxis = Axis.allCases.max { abs(d[$0]) < abs(d[$1]) }!
        let others = Axis.allCases.filter { $0 != xAxis }
        let rest2 = (d[others[0]] * d[others[0]] + d[others[1]] * d[others[1]]).squareRoot()
        guard abs(d[xAxis]) >= 2 * rest2 else { throw .notSideways }
        let x = AxisMapping.Source(xAxis, negated: d[xAxis] < 0)

        // y, z: the right-handed mountings left, the one whose rest pitch is nearest the centre.
        var best: (mapping: AxisMapping, distance: Double)?
        for (p, q) in [(others[0], others[1]), (others[1], others[0])] {
            for (ny, nz) in [(false, false), (false, true), (true, false), (true, true)] {
                guard let m = AxisMapping(x: x, y: .init(p, negated: ny), z: .init(q, negated: nz)),
                      determinant(m) == 1 else { continue }
                let distance = abs(angleDifference(pitch(apply(m, rest)), restCentreDegrees))
                if best == nil || distance < best!.distance { best = (m, distance) }
            }
        }
        let axes = best!.mapping
        let r = apply(axes, rest), k = apply(axes, back)
        let turned = angleDifference(pitch(r), pitch(k))  // positive: toward face-up
        if turned < -minimumBackDegrees { throw .tiltedForward(degrees: -turned) }
        guard turned >= minimumBackDegrees, abs(roll(k) - roll(r)) < turned else { throw .notBack }
        return Result(axes: axes, restAngleDegrees: tenths(pitch(r)), restRollDegrees: tenths(roll(r)), backDegrees: turned)
    }

    /// Board values from sensor values.
    static func apply(_ m: AxisMapping, _ v: Axes3<Double>) -> Axes3<Double> {
        func pick(_ s: AxisMapping.Source) -> Double { s.negated ? -v[s.axis] : v[s.axis] }
        return Axes3(x: pick(m.x), y: pick(m.y), z: pick(m.z))
    }

    /// +1 for a rotation, −1 for a mirror.
    static func determinant(_ m: AxisMapping) -> Int {
        let order = [m.x.axis.rawValue, m.y.axis.rawValue, m.z.axis.rawValue]
        var inversions = 0
        for i in 0..<3 { for j in (i + 1)..<3 where order[i] > order[j] { inversions += 1 } }
        let flips = [m.x, m.y, m.z].filter(\.negated).count
        return (inversions + flips) % 2 == 0 ? 1 : -1
    }

    /// Pitch from face-up toward face-forward: gravity reads (ay, az) = (−sin θ, −cos θ).
    static func pitch(_ g: Axes3<Double>) -> Double { atan2Degrees(-g.y, -g.z) }

    /// Lean with the right side down: ax = sin φ.
    static func roll(_ g: Axes3<Double>) -> Double { atan2Degrees(g.x, (g.y * g.y + g.z * g.z).squareRoot()) }

    /// a − b wrapped into (−180°, 180°].
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
        return d
    }

    static func tenths(_ degrees: Double) -> Double {
        let t = (degrees * 10).rounded() / 10
        return t == 0 ? 0 : t  // no "-0"
    }

    /// atan2 in degrees without libm (the pure modules link no C library):
    /// two half-angle reductions bring |t| to at most tan(π/16) ≈ 0.2, where
    /// twelve terms of the arctangent series are exact to double precision.
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        let degreesPerRadian = 180 / Double.pi
        func atan(_ t: Double) -> Double {  // |t| <= 1
            var u = t
            for _ in 0..<2 { u = u / (1 + (1 + u * u).squareRoot()) }
            var sum = 0.0, term = u
            for n in 0..<12 {
                sum += term / Double(2 * n + 1)
                term *= -u * u
            }
            return 4 * sum
        }
        let angle: Double
        if abs(x) >= abs(y) {
            angle = atan(y / x) + (x < 0 ? (y < 0 ? -Double.pi : Double.pi) : 0)
        } else {
            angle = (y > 0 ? Double.pi / 2 : -Double.pi / 2) - atan(x / y)
        }
        return angle * degreesPerRadian
    }
}
