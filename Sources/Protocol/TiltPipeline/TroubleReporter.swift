import TiltCore

/// Rate-limits news of lost frames and damaged input: at most one report per
/// interval, each saying what happened since the previous one. Without it a
/// log-mode run with millions of bad frames said nothing until exit.
struct TroubleReporter: Sendable, Equatable {
    var reportedLost: UInt64 = 0
    var reportedErrors: UInt64 = 0
    var lastReport: HostTime?

    /// News when counters moved and the interval since the last report passed.
    mutating func report(counters: HostCounters, at now: HostTime, interval: UInt64) -> HostNews? {
        let lost = counters.lostFrames, errors = counters.errors
        guard lost > reportedLost || errors > reportedErrors else { return nil }
        if let last = lastReport, now.micros(since: last) < interval { return nil }
        defer {
            reportedLost = lost
            reportedErrors = errors
            lastReport = now
        }
        return .trouble(lost: lost - reportedLost, errors: errors - reportedErrors, totalLost: lost, totalErrors: errors)
    }

    /// When unreported trouble may next be reported (nil: nothing pending).
    func pendingDeadline(counters: HostCounters, interval: UInt64) -> HostTime? {
        guard counters.lostFrames > reportedLost || counters.errors > reportedErrors else { return nil }
        return (lastReport ?? .zero) + interval
    }
}
