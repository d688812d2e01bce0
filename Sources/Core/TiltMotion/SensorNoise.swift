#if canImport(Glibc)
import Glibc
#endif
import TiltCore

/// White sensor noise at the MPU-6050 datasheet's noise densities, from a seeded
/// generator so a run is repeatable.
///
/// Accelerometer: 400 µg/√Hz; gyroscope: 0.005 °/s/√Hz (MPU-6000/6050 Product
/// Specification rev 3.4, §6.1–6.2). RMS noise = density × √bandwidth; with no
/// low-pass configured the bandwidth is half the sample rate.
public struct SensorNoise: Hashable, Sendable {
    /// Accelerometer noise density, g/√Hz (datasheet: 400 µg/√Hz).
    public static let accelDensityG = 400e-6
    /// Gyroscope noise density, °/s/√Hz (datasheet: 0.005).
    public static let gyroDensityDps = 0.005

    /// RMS accelerometer noise per sample, g.
    public var accelRMS: Double
    /// RMS gyroscope noise per sample, °/s.
    public var gyroRMS: Double
    private var random: SplitMix64

    /// Noise for `sampleRate` samples per second (bandwidth half of it), times `scale`; the same `seed` gives the same noise.
    public init(sampleRate: Double, seed: UInt64 = 0x5EED, scale: Double = 1) {
        let bandwidth = sampleRate / 2
        accelRMS = Self.accelDensityG * bandwidth.squareRoot() * scale
        gyroRMS = Self.gyroDensityDps * bandwidth.squareRoot() * scale
        random = SplitMix64(seed: seed)
    }

    /// No noise (zero RMS).
    public static let none = SensorNoise(sampleRate: 0)

    /// One draw per axis, in g.
    public mutating func accel() -> (x: Double, y: Double, z: Double) {
        (gaussian() * accelRMS, gaussian() * accelRMS, gaussian() * accelRMS)
    }

    /// One draw per axis, in °/s.
    public mutating func gyro() -> (x: Double, y: Double, z: Double) {
        (gaussian() * gyroRMS, gaussian() * gyroRMS, gaussian() * gyroRMS)
    }

    /// Box–Muller: a standard normal draw.
    private mutating func gaussian() -> Double {
        let u = random.openUnitInterval(), v = random.openUnitInterval()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
