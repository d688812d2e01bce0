import TiltCore

/// i2cdevlib's MPU6050_raw example (OUTPUT_READABLE_ACCELGYRO, the default):
/// after a few banner lines ("Initializing I2C devices...", "Testing device
/// connections...", "MPU6050 connection successful") it prints, with println
/// (CRLF), one line per reading:
///
///     a/g:\t<ax>\t<ay>\t<az>\t<gx>\t<gy>\t<gz>
///
/// The values are the sensor's raw counts at its power-on ranges (±2 g,
/// ±250 °/s), so they become a `RawSample` as they are; the sketch does not
/// print the temperature, which reads 0. Fields are separated by tabs or
/// spaces; a value outside Int16 makes the line malformed.
public enum I2CDevLibFormat: TextLineFormat {
    /// Reads one line (without its line end): a sample for `a/g:` and six Int16 fields, else ignored or malformed.
    public static func read(_ line: UnsafeRawBufferPointer) -> TextLine {
        var fields = TextFields(line, after: "a/g:")
        guard fields.hasPrefix else { return .ignored }
        var values: (Int16, Int16, Int16, Int16, Int16, Int16) = (0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutablePointer(to: &values) { tuple in
            tuple.withMemoryRebound(to: Int16.self, capacity: 6) { out in
                for index in 0..<6 {
                    guard fields.atSpace, let value = fields.integer(), let word = Int16(exactly: value) else { return false }
                    out[index] = word
                }
                return fields.atEnd
            }
        }
        guard ok else { return .malformed }
        return .sample(RawSample(
            accel: Axes3(x: values.0, y: values.1, z: values.2),
            temperature: 0,
            gyro: Axes3(x: values.3, y: values.4, z: values.5)))
    }
}
