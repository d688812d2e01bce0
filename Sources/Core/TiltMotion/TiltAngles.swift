#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Pitch and roll of a gravity reading in the recipes' convention (g per
/// axis, z = −1 face-up, y = −1 upright), in degrees: what the sensor panel
/// shows. Here because the shell may not import the C library's trigonometry.
public enum TiltAngles {
    /// Pitch: 0° face-up, 90° upright facing you (atan2(−ay, −az)).
    public static func pitch(ax: Double, ay: Double, az: Double) -> Double {
        atan2(-ay, -az) * 180 / .pi
    }

    /// Roll: positive with the right side down, ±90° on its edge (atan2(ax, √(ay² + az²))).
    public static func roll(ax: Double, ay: Double, az: Double) -> Double {
        atan2(ax, (ay * ay + az * az).squareRoot()) * 180 / .pi
    }
}
