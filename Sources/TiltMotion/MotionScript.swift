import TiltCore

/// Poses over time, linearly interpolated: the small script language of
/// `tiltsim --script FILE` and of the named scenarios.
///
///     # seconds  back°  right°
///     0          30     0
///     1.5        30     25     # ease right over 1.5 s
///     3          10     25
///
/// Before the first key the first pose holds, after the last key the last one.
public struct MotionScript: Hashable, Sendable {
    public struct Key: Hashable, Sendable {
        public var seconds: Double
        public var pose: Pose
        public init(_ seconds: Double, _ pose: Pose) {
            self.seconds = seconds
            self.pose = pose
        }
    }

    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "motion script line \(line): \(reason)" }
    }

    public let keys: [Key]

    /// Keys must be in time order; an empty script holds the rest pose.
    public init(keys: [Key]) {
        self.keys = keys.isEmpty ? [Key(0, .rest)] : keys
    }

    public init(parsing text: String) throws(ParseError) {
        var keys: [Key] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\r" })
            if fields.isEmpty { continue }
            let numbers = fields.compactMap { Double($0) }
            guard fields.count == 3, numbers.count == 3 else {
                throw ParseError(line: index + 1, reason: "expected 'seconds back right', three numbers, found '\(line)'")
            }
            if let last = keys.last, numbers[0] < last.seconds {
                throw ParseError(line: index + 1, reason: "time \(numbers[0]) s is before the previous key (\(last.seconds) s)")
            }
            guard abs(numbers[1]) <= 180, abs(numbers[2]) <= 180 else {
                throw ParseError(line: index + 1, reason: "angles are degrees from -180 to 180")
            }
            keys.append(Key(numbers[0], Pose(back: numbers[1], right: numbers[2])))
        }
        guard !keys.isEmpty else { throw ParseError(line: 1, reason: "no poses; write lines like '0 30 0'") }
        self.init(keys: keys)
    }

    public var duration: Double { keys.last!.seconds }

    public func pose(at seconds: Double) -> Pose {
        guard seconds > keys[0].seconds else { return keys[0].pose }
        guard let next = keys.firstIndex(where: { $0.seconds > seconds }) else { return keys.last!.pose }
        let a = keys[next - 1], b = keys[next]
        let f = (seconds - a.seconds) / (b.seconds - a.seconds)
        return Pose(back: a.pose.back + (b.pose.back - a.pose.back) * f,
                    right: a.pose.right + (b.pose.right - a.pose.right) * f)
    }
}
