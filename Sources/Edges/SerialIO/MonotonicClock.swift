#if canImport(Glibc)
import Glibc
#endif
import TiltCore

/// The monotonic clock (CLOCK_MONOTONIC) the shell times things with: write
/// deadlines, host receive times, emulator pacing. Not wall-clock time of day.
/// `now()` is the one place the OS clock becomes the core's `HostTime`.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (boot).
    public static func nanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Microseconds since the same point.
    public static func micros() -> UInt64 { nanos() / 1000 }

    /// Now, as the host driver's time (µs since the same point).
    public static func now() -> HostTime { HostTime(micros: micros()) }

    /// The moment `span` after now (negative spans count as zero), for
    /// deadlines at the edges, which take their time-outs as `Duration`.
    public static func deadline(after span: Duration) -> HostTime { now() + span.wholeMicros }
}

extension Duration {
    /// This span in whole µs, rounded up so a time-out never ends early; 0 when
    /// negative, `UInt64.max` when longer than that.
    public var wholeMicros: UInt64 {
        guard self > .zero else { return 0 }
        let (seconds, attoseconds) = components
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000)
        let (total, carry) = whole.addingReportingOverflow(UInt64((attoseconds + 999_999_999_999) / 1_000_000_000_000))
        return overflow || carry ? .max : total
    }
}
