#if canImport(Glibc)
import Glibc
#endif

/// Waits on a wake-up descriptor alone (while no port is open), at most `timeoutMicros`.
/// True when it became readable.
func waitForWakeUp(_ fd: Int32, timeoutMicros: Int) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let micros = max(timeoutMicros, 0)  // poll's negative timeout would mean forever
    let ms = Int32(clamping: micros / 1000 + (micros % 1000 > 0 ? 1 : 0))
    return poll(&p, 1, ms) > 0 && p.revents != 0
}
