import TiltCore

/// How the board is held, as two angles a person can picture.
///
/// - `back`: degrees tilted back from upright (0° face-forward, screen facing you
///   vertically; 90° face-up on a table). The recipe's rest pose reads iOS
///   az = −0.5, which is 30° back.
/// - `right`: degrees with the right side down (negative: left side down).
///
/// In iOS axes gravity is (sin r, −cos r·cos b, −cos r·sin b); the MPU-6050
/// reads the opposite sign, which is what `raw` returns in ±2 g counts.
public struct Pose: Hashable, Sendable {
    public var back: Double
    public var right: Double

    public init(back: Double, right: Double = 0) {
        self.back = back
        self.right = right
    }

    /// The recipe's rest pose: iOS az = −0.5, halfway between face-up and face-forward.
    public static let rest = Pose(back: 30)

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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
