#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSerialShims
import SystemPackage

// Thin typed wrappers over the POSIX calls swift-system does not cover (poll, termios,
// ioctl, flock), in swift-system's style: the raw call, then `Result<_, Errno>`.
// EINTR is retried where retrying is always right (the call has no timeout).

@inline(__always)
func valueOrErrno<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
    let value = body()
    return value == -1 ? .failure(Errno(rawValue: errno)) : .success(value)
}

@inline(__always)
func retryingOnInterrupt<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
    while true {
        let result = valueOrErrno(body)
        if case .failure(.interrupted) = result { continue }
        return result
    }
}

/// What poll reported for one descriptor.
struct PollEvents: OptionSet, Sendable {
    let rawValue: Int16
    static let readable = PollEvents(rawValue: Int16(POLLIN))
    static let writable = PollEvents(rawValue: Int16(POLLOUT))
    static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    static let error = PollEvents(rawValue: Int16(POLLERR))
    static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
    /// Conditions poll reports whether or not they were asked for.
    static let trouble: PollEvents = [.hangUp, .error, .invalid]
}

/// Waits on `fd` (and optionally `wake`) with ppoll, so timeouts have microsecond
/// resolution. A negative timeout waits forever. Returns nil when a signal interrupted
/// the wait (the caller treats it as "nothing yet" and re-checks its own state).
func pollTwo(
    _ fd: CInt, _ events: PollEvents, wake: CInt?, timeoutMicros: Int
) -> Result<(PollEvents, PollEvents)?, Errno> {
    var fds = (
        pollfd(fd: fd, events: events.rawValue, revents: 0),
        pollfd(fd: wake ?? -1, events: Int16(POLLIN), revents: 0))
    let count: nfds_t = wake == nil ? 1 : 2
    var spec = timespec(tv_sec: timeoutMicros / 1_000_000, tv_nsec: (timeoutMicros % 1_000_000) * 1000)
    let result = withUnsafeMutableBytes(of: &fds) { raw in
        let base = raw.baseAddress!.assumingMemoryBound(to: pollfd.self)
        return timeoutMicros < 0
            ? valueOrErrno { cserial_ppoll(base, count, nil) }
            : valueOrErrno { cserial_ppoll(base, count, &spec) }
    }
    switch result {
    case .failure(.interrupted): return .success(nil)
    case .failure(let e): return .failure(e)
    case .success: return .success((PollEvents(rawValue: fds.0.revents), PollEvents(rawValue: fds.1.revents)))
    }
}

func getTermios(_ fd: CInt) -> Result<termios, Errno> {
    var t = termios()
    return valueOrErrno { tcgetattr(fd, &t) }.map { _ in t }
}

func setTermios(_ fd: CInt, _ t: termios) -> Result<Void, Errno> {
    var t = t
    return retryingOnInterrupt { tcsetattr(fd, TCSANOW, &t) }.map { _ in () }
}

/// Maps a numeric baud rate to its termios speed constant (Linux speeds only).
func termiosSpeed(_ baud: Int) -> speed_t? {
    switch baud {
    case 1200: return speed_t(B1200)
    case 2400: return speed_t(B2400)
    case 4800: return speed_t(B4800)
    case 9600: return speed_t(B9600)
    case 19200: return speed_t(B19200)
    case 38400: return speed_t(B38400)
    case 57600: return speed_t(B57600)
    case 115200: return speed_t(B115200)
    case 230400: return speed_t(B230400)
    case 460800: return speed_t(B460800)
    case 500000: return speed_t(B500000)
    case 921600: return speed_t(B921600)
    case 1000000: return speed_t(B1000000)
    case 2000000: return speed_t(B2000000)
    default: return nil
    }
}

/// The numeric baud rate of a termios speed constant (the rates `termiosSpeed` maps).
func baudRate(_ speed: speed_t) -> Int? {
    [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 921600, 1000000, 2000000]
        .first { termiosSpeed($0) == speed }
}

/// Takes an advisory exclusive lock (fails with EWOULDBLOCK when another open holds it).
func lockExclusive(_ fd: CInt) -> Result<Void, Errno> {
    retryingOnInterrupt { flock(fd, LOCK_EX | LOCK_NB) }.map { _ in () }
}

/// TIOCEXCL: later open(2) calls on this tty fail with EBUSY (except for root).
func setTTYExclusive(_ fd: CInt, _ on: Bool) -> Result<Void, Errno> {
    valueOrErrno { cserial_ioctl_none(fd, UInt(on ? TIOCEXCL : TIOCNXCL)) }.map { _ in () }
}

/// Raises or lowers modem control lines (TIOCM_DTR, TIOCM_RTS).
func setModemLines(_ fd: CInt, _ bits: CInt, asserted: Bool) -> Result<Void, Errno> {
    var bits = bits
    return valueOrErrno { cserial_ioctl_ptr(fd, UInt(asserted ? TIOCMBIS : TIOCMBIC), &bits) }.map { _ in () }
}

/// Clears HUPCL so closing the port leaves DTR as it is (no reset on the next open).
func clearHangUpOnClose(_ fd: CInt) -> Result<Void, Errno> {
    getTermios(fd).flatMap { t in
        var t = t
        t.c_cflag &= ~tcflag_t(HUPCL)
        return setTermios(fd, t)
    }
}
