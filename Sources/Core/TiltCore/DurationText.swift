/// Lengths of time as people read them in messages and summaries (`--json`
/// keeps exact µs): the one place both tools format a duration.
public enum DurationText {
    /// How `seconds(micros:places:rounding:)` drops the digits it does not show.
    public enum Rounding: Sendable {
        /// Half up: 1.2345 s to 3 places is "1.235 s" (a simulated time, a timeout).
        case nearest
        /// Toward zero: 4.09 s to 1 place is "4.0 s" (a wait: never claim more than waited).
        case down
    }

    /// `micros` as seconds with exactly `places` decimals (0...6) and " s":
    /// `seconds(micros: 1_234_500, places: 3)` is "1.235 s".
    public static func seconds(micros: UInt64, places: Int, rounding: Rounding = .nearest) -> String {
        precondition((0...6).contains(places), "places must be 0...6")
        var unit: UInt64 = 1, scale: UInt64 = 1
        for _ in 0..<(6 - places) { unit *= 10 }
        for _ in 0..<places { scale *= 10 }
        let count = micros / unit + (rounding == .nearest && micros % unit * 2 >= unit ? 1 : 0)
        guard places > 0 else { return "\(count) s" }
        let fraction = String(count % scale)
        return "\(count / scale).\(String(repeating: "0", count: places - fraction.count))\(fraction) s"
    }

    /// A run's length for its summary: "0.4 s", "12.3 s" (tenths, rounded, under a
    /// minute), "1 min 5 s", "2 h 3 min".
    /// Rounds by the remainder, so no length (a damaged recording's
    /// 2^64 − 1 µs included) overflows.
    public static func span(micros: UInt64) -> String {
        func rounded(_ value: UInt64, _ unit: UInt64) -> UInt64 { value / unit + (value % unit >= unit / 2 ? 1 : 0) }
        let tenths = rounded(micros, 100_000)
        if tenths < 600 { return "\(tenths / 10).\(tenths % 10) s" }
        let seconds = rounded(micros, 1_000_000)
        if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
        let minutes = rounded(seconds, 60)
        return "\(minutes / 60) h \(minutes % 60) min"
    }
}
