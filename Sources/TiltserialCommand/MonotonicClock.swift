#if canImport(Glibc)
import Glibc
#endif

/// Host time for the shell: monotonic microseconds.
enum MonotonicClock {
    static func micros() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}

/// Waits on a wake-up descriptor alone (while no port is open), at most `timeoutMicros`.
/// True when it became readable.
func waitForWakeUp(_ fd: Int32, timeoutMicros: Int) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ms = Int32(clamping: (timeoutMicros + 999) / 1000)
    return poll(&p, 1, ms) > 0 && p.revents != 0
}
