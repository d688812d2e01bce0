#if canImport(Glibc)
import Glibc
#endif
import TiltCore

/// How the board is held, as angles a person can picture.
///
/// - `back`: degrees tilted back from upright (0° face-forward, screen facing you
///   vertically; 90° face-up on a table). The recipe's rest pose reads iOS
///   az = −0.5, which is 30° back.
/// - `right`: degrees with the right side down (negative: left side down).
/// - `turn`: heading, degrees turned clockwise seen from above (like a
///   compass); gravity does not see it, a gyroscope and the DMP do.
///
/// In iOS axes gravity is (sin r, −cos r·cos b, −cos r·sin b); the MPU-6050
/// reads the opposite sign, which is what `accelCounts` returns in ±2 g counts.
///
/// This is the one pose → accelerometer counts in the tree: the emulator, the
/// physics tests and `physics-plots` all use it. The host's settings count
/// pitch the other way, from face-up (`--rest-angle`, `RestPose`): that is
/// `degreesFromFaceUp`, the one place the two conventions meet.
public struct Pose: Hashable, Sendable {
    /// Degrees tilted back from upright: 0° face-forward, 90° face-up.
    public var back: Double
    /// Degrees with the right side down (negative: left side down).
    public var right: Double
    /// Heading, degrees clockwise seen from above; gravity does not see it.
    public var turn: Double

    /// A pose from its three angles, degrees (see the type's description).
    public init(back: Double, right: Double = 0, turn: Double = 0) {
        self.back = back
        self.right = right
        self.turn = turn
    }

    /// The orientation (sensor frame to world, z up): from face-up, tilt up
    /// about the sensor's x axis by 90° − back, roll right side down by
    /// `right` about y, then turn about the vertical by −`turn`. Its `up` is
    /// the accelerometer's reading (MPU convention).
    public var orientation: Quaternion {
        Quaternion(axis: 2, degrees: -turn) * Quaternion(axis: 1, degrees: right) * Quaternion(axis: 0, degrees: 90 - back)
    }

    /// The recipe's rest pose: iOS az = −0.5, halfway between face-up and face-forward.
    public static let rest = Pose(back: 30)

    /// The same tilt in the host's convention: degrees from face-up toward
    /// face-forward (`PhysicsSettings.restAngleDegrees`, `--rest-angle`, the
    /// live view's pitch), 90° − `back`. `Pose.rest` reads 60°.
    public var degreesFromFaceUp: Double { 90 - back }

    /// π / 180: degrees to radians.
    public static let radiansPerDegree = Double.pi / 180

    /// Gravity in the iOS convention, in g.
    public var gravity: (x: Double, y: Double, z: Double) {
        let b = back * Self.radiansPerDegree, r = right * Self.radiansPerDegree
        return (sin(r), -cos(r) * cos(b), -cos(r) * sin(b))
    }

    /// The accelerometer reading at ±2 g (16384 counts per g), MPU-6050 convention.
    public func accelCounts(noise: (x: Double, y: Double, z: Double) = (0, 0, 0)) -> Axes3<Int16> {
        let g = gravity
        return Axes3(x: Self.counts(-g.x + noise.x), y: Self.counts(-g.y + noise.y), z: Self.counts(-g.z + noise.z))
    }

    static func counts(_ g: Double) -> Int16 {
        Int16(max(-32768, min(32767, (g * 16384).rounded())))
    }
}
