#if canImport(Glibc)
import Glibc
#endif
import SerialIO

/// Waits on a wake-up descriptor alone (while no port is open), at most `timeout`.
/// True when it became readable.
func waitForWakeUp(_ fd: Int32, timeout: Duration) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let micros = timeout.wholeMicros  // never negative: poll's negative timeout would mean forever
    let ms = Int32(clamping: micros / 1000 + (micros % 1000 > 0 ? 1 : 0))
    return poll(&p, 1, ms) > 0 && p.revents != 0
}
