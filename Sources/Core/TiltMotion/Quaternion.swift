#if canImport(Glibc)
import Glibc
#endif

/// A rotation as a unit quaternion (w, x, y, z): the board's orientation, the
/// sensor frame turned into the world frame (z up), as the MPU-6050's DMP
/// reports it.
public struct Quaternion: Hashable, Sendable {
    /// The scalar part (w) and the vector part (x, y, z); w² + x² + y² + z² = 1.
    public var w: Double, x: Double, y: Double, z: Double

    /// A quaternion from its parts, as given (not normalised).
    public init(w: Double, x: Double, y: Double, z: Double) {
        (self.w, self.x, self.y, self.z) = (w, x, y, z)
    }

    /// No rotation: the board lying face-up, heading 0.
    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// A turn of `degrees` about axis 0 (x), 1 (y) or 2 (z), right-handed.
    public init(axis: Int, degrees: Double) {
        let half = degrees * Double.pi / 360
        var v = [0.0, 0.0, 0.0]
        v[axis] = sin(half)
        self.init(w: cos(half), x: v[0], y: v[1], z: v[2])
    }

    /// `self` then `other` applied in `self`'s frame (Hamilton product).
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// The inverse rotation (for a unit quaternion).
    public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    /// The same rotation with w ≥ 0.
    public var canonical: Quaternion { w < 0 ? Quaternion(w: -w, x: -x, y: -y, z: -z) : self }

    /// World "up" (0, 0, 1) in the sensor's frame: what a still accelerometer
    /// reads, in g (the third row of the rotation matrix).
    public var up: (x: Double, y: Double, z: Double) {
        (2 * (x * z - w * y), 2 * (w * x + y * z), w * w - x * x - y * y + z * z)
    }

    /// The turn from `self` to `later` over `seconds`, as a body-frame rate in °/s per axis.
    public func bodyRate(to later: Quaternion, seconds: Double) -> (x: Double, y: Double, z: Double) {
        let d = (conjugate * later).canonical
        let n = (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot()
        guard n > 1e-15, seconds > 0 else { return (0, 0, 0) }
        let angle = 2 * atan2(n, d.w) * 180 / Double.pi / seconds
        return (d.x / n * angle, d.y / n * angle, d.z / n * angle)
    }

    /// The tilt (no heading) that makes a still accelerometer read `up`
    /// (any length): the shortest turn from face-up.
    public init(tiltReading up: (x: Double, y: Double, z: Double)) {
        let n = (up.x * up.x + up.y * up.y + up.z * up.z).squareRoot()
        guard n > 0 else { self = .identity; return }
        let (ux, uy, uz) = (up.x / n, up.y / n, up.z / n)
        // Sensor-to-world takes sensor-frame `u` to world z: axis u × z, angle acos(u·z).
        let w = (1 + uz) / 2
        guard w > 1e-12 else { self = Quaternion(w: 0, x: 1, y: 0, z: 0); return }
        let s = w.squareRoot()
        self.init(w: s, x: uy / (2 * s), y: -ux / (2 * s), z: 0)
    }
}
