/// A moment on the host's monotonic clock, in microseconds on a fixed but
/// arbitrary timeline (the shell's CLOCK_MONOTONIC since boot; a test's
/// virtual clock).
///
/// The pure host driver (`HostDriver`, `HostSession`) decides *when* on it:
/// receive times, deadlines, the doze, the hello timeout. It is a different
/// clock from `BoardTime`, and the type keeps the two apart; they meet where a
/// text format without a time stamp takes its receive time as the sample's
/// board time, and where the doze maps the next tick's board time to host time.
/// It enters the core in one place: SerialIO's `MonotonicClock.now()` reads the
/// OS clock into it (a recording stores and gives back its µs unchanged).
/// Lengths of time beside it stay whole µs in integers named `…Micros`, as the
/// settings give them; the rule for each layer is in docs/architecture.md, "Time".
public struct HostTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds on the host's timeline.
    public var micros: UInt64

    /// The moment `micros` µs into the host's timeline.
    @inlinable public init(micros: UInt64) { self.micros = micros }

    /// The timeline's start.
    public static let zero = HostTime(micros: 0)

    /// Earlier on the host's clock.
    @inlinable public static func < (a: HostTime, b: HostTime) -> Bool { a.micros < b.micros }

    /// `micros` µs after `time`. Wraps like `&+` rather than trapping: a
    /// monotonic clock's µs are nowhere near 2^64, and the driver's deadline
    /// arithmetic has always wrapped.
    @inlinable public static func + (time: HostTime, micros: UInt64) -> HostTime {
        HostTime(micros: time.micros &+ micros)
    }

    /// The µs from `earlier` to this moment. Wraps like `&-` when `earlier` is
    /// in fact later: callers that can meet that order check it first.
    @inlinable public func micros(since earlier: HostTime) -> UInt64 { micros &- earlier.micros }

    /// "N µs", as the status lines say it.
    public var description: String { "\(micros) µs" }
}
