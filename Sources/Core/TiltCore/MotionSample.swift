/// A decoded sample in the recipes' iOS convention: board axes (after the
/// mounting's axis mapping), acceleration in g with gravity reading z = −1
/// face-up and y = −1 upright, rotation rate in °/s, temperature in °C.
public struct MotionSample: Hashable, Sendable {
    /// Acceleration, g (gravity reads z = −1 face-up).
    public var accel: Axes3<Fixed>
    /// Rotation rate, °/s (right-handed, counter-clockwise positive).
    public var gyro: Axes3<Fixed>
    /// Die temperature, °C (TEMP_OUT / 340 + 36.53).
    public var temperature: Fixed

    /// A sample from its parts, already in units.
    @inlinable public init(accel: Axes3<Fixed>, gyro: Axes3<Fixed>, temperature: Fixed) {
        self.accel = accel
        self.gyro = gyro
        self.temperature = temperature
    }
}

/// Turns raw counts into a `MotionSample`, exactly, with integer arithmetic only.
///
/// - Acceleration: counts × `AccelRange.fixedPerCount`, mapped, then negated:
///   the MPU-6050 measures the reaction to gravity (+1 g face-up), iOS reports
///   gravity itself (−1 g face-up).
/// - Rotation rate: counts × `GyroRange.fixedPerCount`, mapped; both conventions
///   agree on its sign (right-handed, counter-clockwise positive).
/// - Temperature: raw / 340 + 36.53 °C, rounded to the nearest 1/65536 °C.
public struct SampleConverter: Hashable, Sendable {
    /// The accelerometer range the counts were taken at (HELLO's AFS_SEL).
    public var accelRange: AccelRange
    /// The gyroscope range the counts were taken at (HELLO's FS_SEL).
    public var gyroRange: GyroRange
    /// The mounting: which sensor axis is each board axis.
    public var mapping: AxisMapping

    /// A converter for ±2 g, ±250 °/s and the identity mounting unless given (the MPU-6050's power-on ranges).
    public init(accelRange: AccelRange = .g2, gyroRange: GyroRange = .dps250, mapping: AxisMapping = .identity) {
        self.accelRange = accelRange
        self.gyroRange = gyroRange
        self.mapping = mapping
    }

    /// 36.53 °C in Q15.16, rounded: 36.53 × 65536 = 2394030.08.
    @usableFromInline static let temperatureOffset: Int64 = 2_394_030

    /// The sample in units and the iOS convention on the board's axes; pure integer arithmetic, exact.
    @inlinable public func convert(_ raw: RawSample) -> MotionSample {
        let a = accelRange.fixedPerCount
        let g = gyroRange.fixedPerCount
        let accel = mapping.apply(Axes3(x: Int32(raw.accel.x) * a, y: Int32(raw.accel.y) * a, z: Int32(raw.accel.z) * a))
        let gyro = mapping.apply(Axes3(x: Int32(raw.gyro.x) * g, y: Int32(raw.gyro.y) * g, z: Int32(raw.gyro.z) * g))
        return MotionSample(
            accel: Axes3(x: Fixed(raw: -accel.x), y: Fixed(raw: -accel.y), z: Fixed(raw: -accel.z)),
            gyro: Axes3(x: Fixed(raw: gyro.x), y: Fixed(raw: gyro.y), z: Fixed(raw: gyro.z)),
            temperature: Self.temperature(raw.temperature))
    }

    /// raw / 340 + 36.53 in Q15.16, rounded half away from zero.
    @inlinable static func temperature(_ raw: Int16) -> Fixed {
        let scaled = Int64(raw) << 16
        let quotient = (scaled + (scaled < 0 ? -170 : 170)) / 340
        return Fixed(raw: Int32(quotient + temperatureOffset))
    }
}

/// A raw sample with the board's time and sequence number, as the protocol or a
/// text reader delivers it. `timeMicros` is the board's clock, unwrapped to 64
/// bits (or the host's receive time for formats that carry none).
public struct TimedSample: Hashable, Sendable {
    /// When the board read it (or the host received it, for formats without a time).
    public var time: BoardTime
    /// The frame's sequence number (SAMPLE `seq`; a text reader counts its own).
    public var sequence: UInt8
    /// The sensor's counts (MPU-6050 registers ACCEL_XOUT_H…GYRO_ZOUT_L).
    public var raw: RawSample

    /// A sample read at board time `time`.
    @inlinable public init(time: BoardTime, sequence: UInt8, raw: RawSample) {
        self.time = time
        self.sequence = sequence
        self.raw = raw
    }

    /// A sample read `timeMicros` µs after the board started: the form for
    /// formats that carry a µs count (sample CSV `t_us`).
    @inlinable public init(timeMicros: UInt64, sequence: UInt8, raw: RawSample) {
        self.init(time: BoardTime(micros: timeMicros), sequence: sequence, raw: raw)
    }

    /// `time` in µs since the board started (sample CSV `t_us`).
    @inlinable public var timeMicros: UInt64 {
        get { time.micros }
        set { time.micros = newValue }
    }
}
