import TiltCore

/// Poses over time, linearly interpolated: the small script language of
/// `tiltsim --script FILE` and of the named scenarios. A fourth column, the
/// heading (`turn°`, clockwise seen from above), is optional (0 when left out).
///
///     # seconds  back°  right°  [turn°]
///     0          30     0
///     1.5        30     25     # ease right over 1.5 s
///     3          10     25      90
///
/// Before the first key the first pose holds, after the last key the last one.
public struct MotionScript: Hashable, Sendable {
    /// One line of a script: a pose at a time.
    public struct Key: Hashable, Sendable {
        /// When, seconds since the script started.
        public var seconds: Double
        /// The pose then (back°, right°, turn°).
        public var pose: Pose
        /// The pose `pose` at `seconds`.
        public init(_ seconds: Double, _ pose: Pose) {
            self.seconds = seconds
            self.pose = pose
        }
    }

    /// Why a script's text does not read, with its 1-based line.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The 1-based line of the script.
        public let line: Int
        /// What is wrong there, naming the fix.
        public let reason: String
        /// "motion script line N: reason".
        public var description: String { "motion script line \(line): \(reason)" }
    }

    /// The keys in time order; never empty.
    public let keys: [Key]

    /// Keys must be in time order; an empty script holds the rest pose.
    public init(keys: [Key]) {
        self.keys = keys.isEmpty ? [Key(0, .rest)] : keys
    }

    /// The latest time a key may have, seconds (a day, as `tiltsim run --timeout`'s):
    /// later ones are typos, and an infinite one trapped in `Motion.loopMicros`.
    public static let maximumSeconds = 86_400.0

    /// Reads the text form (see the type's documentation): 3 or 4 numbers per
    /// line, `#` comments, times from 0 to `maximumSeconds`, not decreasing.
    /// Lines end with LF, CRLF or CR, and a byte-order mark is skipped, as the
    /// sample CSV reader takes them (a CRLF script was one line before: Swift
    /// reads "\r\n" as one Character, not "\n").
    public init(parsing text: String) throws(ParseError) {
        var keys: [Key] = []
        let lines = text.drop { $0 == "\u{FEFF}" }.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            if fields.isEmpty { continue }
            let numbers = fields.compactMap { Double($0) }
            guard fields.count == 3 || fields.count == 4, numbers.count == fields.count else {
                throw ParseError(line: index + 1, reason: "expected 'seconds back right [turn]', three or four numbers, "
                                 + "found '\(OneLineText.escaped(line, limit: 40))'")
            }
            guard numbers[0] >= 0 && numbers[0] <= Self.maximumSeconds else {  // NaN fails both
                throw ParseError(line: index + 1, reason: "time \(numbers[0]) s: give seconds from 0 to \(Int(Self.maximumSeconds))")
            }
            if let last = keys.last, numbers[0] < last.seconds {
                throw ParseError(line: index + 1, reason: "time \(numbers[0]) s is before the previous key (\(last.seconds) s)")
            }
            guard numbers.dropFirst().allSatisfy({ abs($0) <= 180 }) else {
                throw ParseError(line: index + 1, reason: "angles are degrees from -180 to 180")
            }
            keys.append(Key(numbers[0], Pose(back: numbers[1], right: numbers[2], turn: numbers.count == 4 ? numbers[3] : 0)))
        }
        guard !keys.isEmpty else { throw ParseError(line: 1, reason: "no poses; write lines like '0 30 0'") }
        self.init(keys: keys)
    }

    /// The last key's time, seconds.
    public var duration: Double { keys.last!.seconds }

    /// The pose at `seconds`, interpolated linearly between keys; the first or last pose outside them.
    public func pose(at seconds: Double) -> Pose {
        guard seconds > keys[0].seconds else { return keys[0].pose }
        guard let next = keys.firstIndex(where: { $0.seconds > seconds }) else { return keys.last!.pose }
        let a = keys[next - 1], b = keys[next]
        let f = (seconds - a.seconds) / (b.seconds - a.seconds)
        return Pose(back: a.pose.back + (b.pose.back - a.pose.back) * f,
                    right: a.pose.right + (b.pose.right - a.pose.right) * f,
                    turn: a.pose.turn + (b.pose.turn - a.pose.turn) * f)
    }
}
