#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// What reading a child's first line came to.
public enum FirstLine: Equatable, Sendable {
    /// The line, without its newline.
    case line(String)
    /// End of file, or an error, before a newline: the writer has gone.
    case ended
    /// Nothing complete within the time given (or 4096 bytes without a newline).
    case timedOut
}

extension FileDescriptor {
    /// The first line read from this descriptor (a child's stdout), waiting at
    /// most `timeout` in all; why there is none otherwise (the child ended, or
    /// the time ran out: a message must not say it waited when it did not).
    public func firstLine(timeout: Duration) -> FirstLine {
        var line: [UInt8] = []
        let deadline = MonotonicClock.deadline(after: timeout)
        var byte: UInt8 = 0
        while line.count < 4096 {
            let now = MonotonicClock.now()
            guard now < deadline else { return .timedOut }
            var descriptor = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: deadline.micros(since: now) / 1000 + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { return .ended }
            guard ready > 0 else { return .timedOut }
            let n = Glibc.read(rawValue, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return .ended }
            if byte == UInt8(ascii: "\n") { return .line(String(decoding: line, as: UTF8.self)) }
            line.append(byte)
        }
        return .timedOut
    }
}
