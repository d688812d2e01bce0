/// The hand-writable sample format: one sample a line, `t_us,ax,ay,az[,gx,gy,gz]`,
/// raw MPU-6050 counts at ±2 g / ±250 °/s in the sensor's own convention (face-up
/// reads az = +16384), an optional header line, `#` comments and blank lines
/// ignored. `tiltserial replay` reads it; `tiltsim` plays it as a motion.
public enum SampleCSV {
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public static let header = "t_us,ax,ay,az,gx,gy,gz"

    /// Parses a whole document. Times must not go backwards; sequence numbers are
    /// assigned in order (wrapping like the protocol's).
    public static func parse(_ text: String) throws(ParseError) -> [TimedSample] {
        var samples: [TimedSample] = []
        var lineNumber = 0
        var firstLine = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            defer { firstLine = false }
            if firstLine, trimmed.first.map({ $0.isLetter }) == true { continue }  // the header
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
            guard fields.count == 4 || fields.count == 7 else {
                throw ParseError(line: lineNumber, reason: "expected 4 or 7 comma-separated values (\(header)), found \(fields.count)")
            }
            guard let time = UInt64(fields[0]) else {
                throw ParseError(line: lineNumber, reason: "t_us '\(fields[0])' is not a whole number of microseconds")
            }
            var counts: [Int16] = []
            for (index, field) in fields.dropFirst().enumerated() {
                guard let value = Int16(field) else {
                    let name = header.split(separator: ",")[index + 1]
                    throw ParseError(line: lineNumber, reason: "\(name) '\(field)' is not a count from -32768 to 32767")
                }
                counts.append(value)
            }
            if let last = samples.last, time < last.timeMicros {
                throw ParseError(line: lineNumber, reason: "t_us \(time) goes back in time (previous \(last.timeMicros))")
            }
            let gyro = counts.count == 6 ? Axes3(x: counts[3], y: counts[4], z: counts[5]) : Axes3(x: 0, y: 0, z: 0)
            let raw = RawSample(accel: Axes3(x: counts[0], y: counts[1], z: counts[2]), temperature: 0, gyro: gyro)
            samples.append(TimedSample(timeMicros: time, sequence: UInt8(truncatingIfNeeded: samples.count), raw: raw))
        }
        return samples
    }

    /// One line for `sample`, without a newline.
    public static func line(_ sample: TimedSample) -> String {
        let r = sample.raw
        return "\(sample.timeMicros),\(r.accel.x),\(r.accel.y),\(r.accel.z),\(r.gyro.x),\(r.gyro.y),\(r.gyro.z)"
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}
