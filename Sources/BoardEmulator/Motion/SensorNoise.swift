/// White sensor noise at the MPU-6050 datasheet's noise densities, from a seeded
/// generator so a run is repeatable.
///
/// Accelerometer: 400 µg/√Hz; gyroscope: 0.005 °/s/√Hz (MPU-6000/6050 Product
/// Specification rev 3.4, §6.1–6.2). RMS noise = density × √bandwidth; with no
/// low-pass configured the bandwidth is half the sample rate.
public struct SensorNoise: Hashable, Sendable {
    public static let accelDensityG = 400e-6
    public static let gyroDensityDps = 0.005

    public var accelRMS: Double
    public var gyroRMS: Double
    private var state: UInt64

    public init(sampleRate: Double, seed: UInt64 = 0x5EED, scale: Double = 1) {
        let bandwidth = sampleRate / 2
        accelRMS = Self.accelDensityG * bandwidth.squareRoot() * scale
        gyroRMS = Self.gyroDensityDps * bandwidth.squareRoot() * scale
        state = seed
    }

    public static let none = SensorNoise(sampleRate: 0)

    /// One draw per axis, in g.
    public mutating func accel() -> (x: Double, y: Double, z: Double) {
        (gaussian() * accelRMS, gaussian() * accelRMS, gaussian() * accelRMS)
    }

    /// One draw per axis, in °/s.
    public mutating func gyro() -> (x: Double, y: Double, z: Double) {
        (gaussian() * gyroRMS, gaussian() * gyroRMS, gaussian() * gyroRMS)
    }

    private mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11 | 1) / Double(1 << 53)  // (0, 1)
    }

    /// Box–Muller: a standard normal draw.
    private mutating func gaussian() -> Double {
        let u = uniform(), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
