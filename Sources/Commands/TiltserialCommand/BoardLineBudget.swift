/// Caps the lines a board's HELLO and PARTS get. A board that resets again
/// and again (a brown-out from a servo on the same 5 V, a sketch that
/// crashes) or keeps changing what it reports printed a line each time, and
/// a hostile one thousands a second. The first `burst` are said; after that
/// they are counted, and one line says how many and the latest, once the
/// board has been quiet (no HELLO or PARTS) for `quietTicks` ticks, every
/// `reportTicks` ticks while it goes on, and at the end of the run.
/// Counted in the host's ticks (board time), so a replay says the same.
struct BoardLineBudget {
    static let burst = 6
    /// 3 s of 30 ms ticks without a HELLO or PARTS: the board settled.
    static let quietTicks = 100
    /// While it goes on, a summary every 30 s of ticks.
    static let reportTicks = 1000

    private var said = 0
    private var held = 0
    private var latest = ""
    private var ticksSinceBoardLine = 0
    private var ticksSinceReport = 0

    /// A HELLO or PARTS line the board's frame would say: true to say it now.
    mutating func take(_ line: String) -> Bool {
        ticksSinceBoardLine = 0
        if said < Self.burst {
            said += 1
            return true
        }
        if held == 0 { ticksSinceReport = 0 }
        held += 1
        latest = line
        return false
    }

    /// A tick passed: the summary of what was held back, when it is due.
    mutating func tick() -> String? {
        ticksSinceBoardLine += 1
        ticksSinceReport += 1
        if ticksSinceBoardLine >= Self.quietTicks {
            defer { said = 0 }
            return report()
        }
        return ticksSinceReport >= Self.reportTicks ? report() : nil
    }

    /// The summary of what was held back (at the end of the run), nil when nothing was.
    mutating func report() -> String? {
        guard held > 0 else { return nil }
        defer { held = 0; ticksSinceReport = 0 }
        return "the board said HELLO or PARTS \(held) more time\(held == 1 ? "" : "s") (not shown): it keeps resetting or "
            + "changing what it reports (a brown-out, a loose wire, a sketch that crashes?); latest: \(latest)"
    }
}
