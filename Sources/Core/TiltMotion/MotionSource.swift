import TiltCore

/// Where the virtual MPU-6050 gets its readings from: a function of simulated
/// time, asked once per sample period while the sensor is awake.
///
/// Values are MPU counts at the power-on full scales (accelerometer ±2 g =
/// 16384 counts per g, gyroscope ±250 °/s); the sensor rescales them for the
/// full scale the firmware selects. Sign convention of the real part: lying
/// face-up it reads az = +16384.
///
/// Calls come from the emulator's simulation thread with non-decreasing `t`.
public protocol MotionSource: Sendable {
    /// The reading at simulated time `t`: microseconds of simulated time since
    /// the board was made (it keeps counting across resets and replugs).
    mutating func sample(atMicros t: UInt64) -> RawSample

    /// The board's exact orientation at `t`, when the source knows it (scripted
    /// poses); nil: the DMP derives a tilt from the accelerometer instead.
    /// Must not disturb `sample`'s sequence (no noise drawn). No default: a
    /// source that wraps another has to pass its orientation on (one that
    /// forgot left the DMP deriving a tilt from the accelerometer).
    func orientation(atMicros t: UInt64) -> Quaternion?
}

/// A board that does not move: the same reading at every instant.
public struct ConstantMotionSource: MotionSource, Hashable {
    /// The reading every sample returns.
    public var reading: RawSample

    /// A source that always returns `reading`.
    public init(_ reading: RawSample) {
        self.reading = reading
    }

    /// Lying face-up and still: az = +1 g, about 25 °C, no rotation.
    public static let faceUp = ConstantMotionSource(RawSample(
        accel: Axes3(x: 0, y: 0, z: 16384),
        temperature: Int16(truncatingIfNeeded: (25 * 340) - Int(36.53 * 340)),
        gyro: Axes3(x: 0, y: 0, z: 0)))

    /// `reading`, whatever the time.
    public func sample(atMicros t: UInt64) -> RawSample { reading }

    /// None: the DMP derives the tilt from `reading`.
    public func orientation(atMicros t: UInt64) -> Quaternion? { nil }
}
