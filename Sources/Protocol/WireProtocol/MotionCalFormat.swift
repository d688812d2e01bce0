import TiltCore

/// PJRC MotionCal's serial input, as printed by its calibration sketches
/// (NXPMotionSense CalibrateSensors, Adafruit_AHRS / Adafruit_SensorLab
/// calibration examples):
///
///     Raw:<ax>,<ay>,<az>,<gx>,<gy>,<gz>,<mx>,<my>,<mz>
///
/// Units are MotionCal's (its imuread.h: G_PER_COUNT = 1/8192,
/// DEG_PER_SEC_PER_COUNT = 1/16, UT_PER_COUNT = 0.1); the Adafruit sketches
/// print `acceleration (m/s²) × 8192 / 9.8`, `rate (rad/s) × 57.2958 × 16` and
/// `field (µT) × 10`, truncated to int.
///
/// Conversion to MPU-6050 counts at ±2 g / ±250 °/s (what `RawSample` holds for
/// the default ranges):
/// - acceleration: × 2 (16384 counts per g / 8192), exact;
/// - rotation rate: × 131.072 / 16 = × 1024 / 125 (the nominal 32768 / 250
///   counts per °/s that `GyroRange` uses), rounded half away from zero;
/// - both clamped to Int16 (MotionCal's range goes to ±4 g and ±2048 °/s);
/// - magnetometer fields are read and checked but dropped; temperature reads 0.
/// A field that does not fit a 32-bit int, or a count other than 9, makes the
/// line malformed; other lines (e.g. the sketches' `Uni:` lines) are ignored.
public enum MotionCalFormat: TextLineFormat {
    /// Reads one line (without its line end): a sample for `Raw:` and nine ints, else ignored or malformed.
    public static func read(_ line: UnsafeRawBufferPointer) -> TextLine {
        var fields = TextFields(line, after: "Raw:")
        guard fields.hasPrefix else { return .ignored }
        var values: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutablePointer(to: &values) { tuple in
            tuple.withMemoryRebound(to: Int.self, capacity: 6) { out in
                for index in 0..<9 {
                    if index > 0 && !fields.skipSeparator(UInt8(ascii: ",")) { return false }
                    guard let value = fields.integer(), Int32(exactly: value) != nil else { return false }
                    if index < 6 { out[index] = value }
                }
                return fields.atEnd
            }
        }
        guard ok else { return .malformed }
        return .sample(RawSample(
            accel: Axes3(x: accel(values.0), y: accel(values.1), z: accel(values.2)),
            temperature: 0,
            gyro: Axes3(x: gyro(values.3), y: gyro(values.4), z: gyro(values.5))))
    }

    /// MotionCal accel counts (8192 per g) to MPU-6050 ±2 g counts.
    public static func accel(_ value: Int) -> Int16 { clamp(value * 2) }

    /// MotionCal gyro counts (16 per °/s) to MPU-6050 ±250 °/s counts.
    public static func gyro(_ value: Int) -> Int16 {
        let scaled = value * 1024
        return clamp((scaled + (scaled < 0 ? -62 : 62)) / 125)
    }

    static func clamp(_ value: Int) -> Int16 { Int16(clamping: value) }
}
