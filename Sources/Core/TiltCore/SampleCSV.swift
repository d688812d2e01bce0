/// The hand-writable sample format: one sample a line, `t_us,ax,ay,az[,gx,gy,gz]`,
/// raw MPU-6050 counts at ±2 g / ±250 °/s in the sensor's own convention (face-up
/// reads az = +16384), an optional header line, `#` comments and blank lines
/// ignored; LF, CRLF or CR line endings, an optional UTF-8 byte order mark
/// (SampleCSVReader has the exact rules and ranges). `tiltserial replay` reads
/// it; `tiltsim` plays it as a motion.
public enum SampleCSV {
    /// Why a CSV does not read, with its 1-based line.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The 1-based line of the file.
        public let line: Int
        /// What is wrong there, naming the fix.
        public let reason: String
        /// "line N: reason".
        public var description: String { "line \(line): \(reason)" }
    }

    /// The header line writers put first (with gyro columns).
    public static let header = "t_us,ax,ay,az,gx,gy,gz"

    /// Parses a whole document held in memory (tests, tools, tiltsim's motion);
    /// `SampleCSVReader` reads a stream of any length. Times must not go
    /// backwards; sequence numbers are assigned in order (wrapping like the protocol's).
    public static func parse(_ text: String) throws(ParseError) -> [TimedSample] {
        var text = text
        return try text.withUTF8 { parseResult(UnsafeRawBufferPointer($0)) }.get()
    }

    /// `parse(_:)` for raw bytes (a file's contents).
    public static func parse(bytes: [UInt8]) throws(ParseError) -> [TimedSample] {
        try bytes.withUnsafeBytes { parseResult($0) }.get()
    }

    private static func parseResult(_ bytes: UnsafeRawBufferPointer) -> Result<[TimedSample], ParseError> {
        var reader = SampleCSVReader()
        var samples: [TimedSample] = []
        do throws(ParseError) {
            try reader.feed(bytes) { samples.append($0) }
            try reader.finish { samples.append($0) }
            return .success(samples)
        } catch {
            return .failure(error)
        }
    }

    /// One line for `sample`, without a newline.
    public static func line(_ sample: TimedSample) -> String {
        let r = sample.raw
        return "\(sample.timeMicros),\(r.accel.x),\(r.accel.y),\(r.accel.z),\(r.gyro.x),\(r.gyro.y),\(r.gyro.z)"
    }
}
