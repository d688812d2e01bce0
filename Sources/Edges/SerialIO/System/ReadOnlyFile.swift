#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// A file open for reading (close-on-exec), closed when released.
public final class ReadOnlyFile {
    /// The open descriptor (valid until this object is released).
    public let descriptor: Int32

    /// Opens `path` (`noControllingTerminal`: a terminal opened here never
    /// becomes ours, O_NOCTTY; `nonBlocking`: a FIFO opens without waiting for
    /// a writer, and a read says EAGAIN while one is there with nothing yet).
    public init(_ path: String, noControllingTerminal: Bool = false, nonBlocking: Bool = false) throws(Errno) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (noControllingTerminal ? O_NOCTTY : 0) | (nonBlocking ? O_NONBLOCK : 0))
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        descriptor = fd
    }

    /// Whether something comes to read (data, or a writer that came and went)
    /// within `milliseconds`: a FIFO's writer whose open was just let through
    /// by ours may not have counted yet at our first read.
    public func waitReadable(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0
        }
    }

    /// Reads block again (after `nonBlocking`).
    public func setBlocking() {
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
    }

    deinit { _ = close(descriptor) }

    /// The open file's status (fstat); nil when it cannot be read.
    public func status() -> FileStatus? { try? FileStatus.of(descriptor: descriptor).get() }

    /// One read: what is there now, waiting only while nothing is (a pipe's
    /// writer that has not written yet); 0 at the end. EINTR is retried
    /// unless `givingUp` says a stop was asked for (then 0).
    public func readSome(into buffer: UnsafeMutableRawBufferPointer, givingUp: () -> Bool = { false }) -> (count: Int, error: Errno?) {
        while true {
            let n = Glibc.read(descriptor, buffer.baseAddress!, buffer.count)
            if n >= 0 { return (n, nil) }
            if errno != EINTR { return (0, Errno(rawValue: errno)) }
            if givingUp() { return (0, nil) }
        }
    }

    /// Reads until `buffer` is full or the file ends (EINTR retried, unless
    /// `givingUp` says a stop was asked for: then what was read so far): the
    /// bytes read, and the error that stopped a read (nil: none).
    public func read(into buffer: UnsafeMutableRawBufferPointer, givingUp: () -> Bool = { false }) -> (count: Int, error: Errno?) {
        var count = 0
        while count < buffer.count {
            let n = Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            if n > 0 {
                count += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                return (count, Errno(rawValue: errno))
            } else if givingUp() {
                break
            }
        }
        return (count, nil)
    }
}
