/// Keeps board time at or behind wall time × factor, for both engines: how
/// long to wait before the board may reach an instant (the AVR's batches, the
/// native board's samples) and how far it may run now. Falling far behind (a
/// stalled host) re-anchors instead of racing to catch up.
struct BoardPacer: Sendable {
    /// Debt (wall time) beyond which the pacer forgives and re-anchors.
    static let maximumDebtNanos: UInt64 = 250_000_000

    private(set) var pace: BoardPace
    private var anchorWallNanos: UInt64 = 0
    private var anchorBoardMicros: UInt64 = 0

    init(pace: BoardPace) {
        self.pace = pace
    }

    /// Starts measuring from (`boardMicros`, `wallNanos`), optionally with a new pace.
    mutating func anchor(boardMicros: UInt64, wallNanos: UInt64, pace: BoardPace? = nil) {
        if let pace { self.pace = pace }
        anchorBoardMicros = boardMicros
        anchorWallNanos = wallNanos
    }

    /// Nanoseconds to wait before board time may reach `target`; 0 = go now.
    mutating func delay(beforeReaching target: UInt64, wallNanos now: UInt64) -> UInt64 {
        guard let factor = pace.factor, target > anchorBoardMicros else { return 0 }
        let due = Self.whole(Double(target - anchorBoardMicros) * 1000 / factor)
        let elapsed = now &- anchorWallNanos
        if due > elapsed { return due - elapsed }
        if elapsed - due > Self.maximumDebtNanos {
            anchor(boardMicros: target, wallNanos: now)
        }
        return 0
    }

    /// The board time wall time allows now; nil when free-running. `next` is
    /// the next instant the board wants to reach (where a large debt re-anchors).
    mutating func allowedBoardMicros(wallNanos now: UInt64, next: UInt64) -> UInt64? {
        guard let factor = pace.factor else { return nil }
        var allowed = Self.sum(anchorBoardMicros, Self.whole(Double(now &- anchorWallNanos) / 1000 * factor))
        if allowed > next, allowed - next > Self.whole(Double(Self.maximumDebtNanos / 1000) * factor) {
            anchor(boardMicros: next, wallNanos: now)
            allowed = next
        }
        return allowed
    }

    /// Wall µs until board time may reach `boardMicros` (0 if it may now).
    func microsUntil(boardMicros: UInt64, wallNanos now: UInt64) -> Int {
        guard let factor = pace.factor, boardMicros > anchorBoardMicros else { return 0 }
        let dueNanos = Self.sum(anchorWallNanos, Self.whole(Double(boardMicros - anchorBoardMicros) * 1000 / factor))
        let wait = dueNanos > now ? dueNanos - now : 0
        return Int(wait / 1000 + (wait % 1000 == 0 ? 0 : 1))
    }

    /// `value` as a whole count, at most UInt64.max: a tiny factor makes a
    /// board instant lie beyond any wall time (the conversion trapped).
    static func whole(_ value: Double) -> UInt64 {
        guard value < 0x1p64 else { return .max }  // also +infinity; NaN is not below
        return value.isNaN ? .max : value > 0 ? UInt64(value) : 0
    }

    /// `a + b`, at most UInt64.max.
    static func sum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }
}
