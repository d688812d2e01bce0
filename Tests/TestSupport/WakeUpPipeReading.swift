import Glibc
import SerialIO

extension WakeUpPipe {
    /// The next byte a writer (a signal handler, a key reader) put in the pipe,
    /// waiting at most 10 s on poll; nil when none came.
    public func nextByte() -> UInt8? {
        var p = pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 10_000) == 1 else { return nil }
        var byte: UInt8 = 0
        return read(readEnd.rawValue, &byte, 1) == 1 ? byte : nil
    }
}
