#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock (CLOCK_MONOTONIC) the shell times things with: write
/// deadlines, host receive times, emulator pacing. Not wall-clock time of day.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (boot).
    public static func nanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Microseconds since the same point.
    public static func micros() -> UInt64 { nanos() / 1000 }
}
