import TiltCore

/// Notices a board that stopped sending samples while its port stays open: a
/// sensor wire come loose under firmware that does not say so, a sketch that
/// hung without a watchdog, a board now talking at another baud rate. Without
/// it the view froze with nothing said. Armed by the first sample (or HELLO)
/// since the port opened; named once per stop, and once more when samples
/// come back.
struct SampleWatch: Sendable, Equatable {
    /// When the last sample (or HELLO) arrived; nil: not armed.
    var lastLife: HostTime?
    /// Bytes read since the last sample: none means a silent board.
    var bytesSince: UInt64 = 0
    /// Valid frames other than samples since the last sample.
    var framesSince: UInt64 = 0
    /// The stop was named and no sample came since.
    var reported = false

    /// Bytes were read.
    mutating func read(_ count: Int) { bytesSince &+= UInt64(count) }

    /// Valid frames that were not samples were decoded.
    mutating func otherFrames(_ count: UInt64) { framesSince &+= count }

    /// The board said HELLO: it is alive and starts over, so the wait starts again.
    mutating func hello(at now: HostTime) {
        lastLife = now
        bytesSince = 0
        framesSince = 0
    }

    /// A sample arrived: news that samples came back, if their stop was named.
    mutating func sample(at now: HostTime) -> HostNews? {
        defer {
            lastLife = now
            bytesSince = 0
            framesSince = 0
            reported = false
        }
        guard reported, let last = lastLife else { return nil }
        return .samplesResumed(afterMicros: now.micros(since: last))
    }

    /// This process was stopped (Ctrl-Z) and runs again at `now`: the wait
    /// starts over, as samples queued meanwhile are not read yet.
    mutating func hostResumed(at now: HostTime) {
        if lastLife != nil { lastLife = now }
    }

    /// The port closed: a reopen has its own silence rule.
    mutating func forget() { self = SampleWatch() }

    /// When a stop would be named, nil when nothing is pending.
    func deadline(after length: UInt64) -> HostTime? {
        guard !reported, let lastLife else { return nil }
        return lastLife + length
    }

    /// News of a stop, once, when `length` passed without a sample.
    mutating func check(at now: HostTime, after length: UInt64) -> HostNews? {
        guard let due = deadline(after: length), now >= due, let lastLife else { return nil }
        reported = true
        return .samplesStopped(forMicros: now.micros(since: lastLife), bytes: bytesSince, frames: framesSince)
    }
}
