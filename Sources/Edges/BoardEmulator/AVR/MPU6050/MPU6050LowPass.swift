#if canImport(Glibc)
import Glibc
#endif

/// The MPU-6050's digital low-pass filter (CONFIG DLPF_CFG 1…6) on one axis:
/// a second-order Butterworth section at the datasheet's bandwidth, run at the
/// 1 kHz internal rate. The part's own filter is undocumented; this one has
/// the listed −3 dB bandwidth, unity gain at DC (a still board reads exactly
/// its counts) and a low-frequency delay of √2 / (2π · bandwidth) — 5.1 ms at
/// 44 Hz (datasheet: 4.9 ms), longer than the datasheet's at 5–10 Hz.
struct MPU6050LowPass: Sendable, Hashable {
    private let b0: Double, b1: Double, b2: Double, a1: Double, a2: Double
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
    private var primed = false

    /// Bandwidth `hertz` at `rate` samples per second.
    init(hertz: Double, rate: Double = 1000) {
        let k = tan(Double.pi * hertz / rate)
        let q = 1 / 2.0.squareRoot()
        let norm = 1 / (1 + k / q + k * k)
        b0 = k * k * norm
        b1 = 2 * b0
        b2 = b0
        a1 = 2 * (k * k - 1) * norm
        a2 = (1 - k / q + k * k) * norm
    }

    /// Forgets the past: the next input is taken as having always been there.
    mutating func reset() { primed = false }

    /// One input at the internal rate; returns the filtered value.
    mutating func step(_ x: Double) -> Double {
        if !primed {
            (x1, x2, y1, y2) = (x, x, x, x)
            primed = true
        }
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        (x2, x1, y2, y1) = (x1, x, y1, y)
        return y
    }

    /// Accelerometer and gyroscope bandwidths (Hz) for DLPF_CFG 1…6
    /// (register map, CONFIG); nil for 0 and 7 (260/256 Hz at 8 kHz: passed through).
    static func bandwidths(dlpf: UInt8) -> (accel: Double, gyro: Double)? {
        switch dlpf & 7 {
        case 1: (184, 188)
        case 2: (94, 98)
        case 3: (44, 42)
        case 4: (21, 20)
        case 5: (10, 10)
        case 6: (5, 5)
        default: nil
        }
    }
}
