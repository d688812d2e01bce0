#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

extension FileDescriptor {
    /// The first line read from this descriptor (a child's stdout), waiting at
    /// most `timeout` in all; nil at end of file, on an error, at the timeout,
    /// or past 4096 bytes without a newline.
    public func firstLine(timeout: Duration) -> String? {
        var line: [UInt8] = []
        let deadline = MonotonicClock.deadline(after: timeout)
        var byte: UInt8 = 0
        while line.count < 4096 {
            let now = MonotonicClock.now()
            guard now < deadline else { return nil }
            var descriptor = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: deadline.micros(since: now) / 1000 + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            let n = Glibc.read(rawValue, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }
}
