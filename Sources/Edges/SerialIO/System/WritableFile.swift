#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// A file open for writing (close-on-exec), closed when released: a new
/// temporary file beside another (what replacing a file atomically starts
/// with), a device or FIFO opened without blocking, or a file created afresh.
public final class WritableFile {
    /// The descriptor; -1 once closed.
    public private(set) var descriptor: Int32

    private init(_ descriptor: Int32) { self.descriptor = descriptor }

    deinit { _ = close() }

    /// A new file beside `target` named `.NAME.XXXXXX` (mkstemp, so the rename
    /// that follows stays on one file system), with `target`'s permissions when
    /// it exists, else 0666 less the umask (mkstemp's own 0600 would hide it);
    /// the file and its path.
    public static func temporary(beside target: String) -> Result<(file: WritableFile, path: String), Errno> {
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var template = Array((folder + "." + name + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(Errno(rawValue: errno)) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // children (hooks) must not inherit it
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)  // mkstemp filled in the X's
        // Read the umask by setting it back at once: nothing else creates files this early.
        let mask = umask(0o022)
        umask(mask)
        var info = stat()
        _ = fchmod(fd, stat(target, &info) == 0 ? info.st_mode & 0o7777 : 0o666 & ~mask)
        return .success((WritableFile(fd), path))
    }

    /// An existing device or FIFO, non-blocking: a FIFO nobody reads fails at
    /// once and a reader that falls behind makes a write fail (EAGAIN).
    public static func openDevice(_ path: String) -> Result<WritableFile, Errno> {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        return fd >= 0 ? .success(WritableFile(fd)) : .failure(Errno(rawValue: errno))
    }

    /// `path` created, or emptied when it exists (0666 less the umask for a
    /// new file). A FIFO nobody reads fails at once (ENXIO) instead of
    /// blocking in open; once open, writes block as for any file.
    public static func create(_ path: String) -> Result<WritableFile, Errno> {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o666)
        guard fd >= 0 else { return .failure(Errno(rawValue: errno)) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(WritableFile(fd))
    }

    /// Writes all of `bytes` (EINTR retried); the error that stopped it (EIO when a write took nothing).
    public func write(_ bytes: UnsafeRawBufferPointer) -> Errno? { DescriptorWrite.all(bytes, to: descriptor) }

    /// Writes all of `bytes`; see `write(_:)` for raw bytes.
    public func write(_ bytes: [UInt8]) -> Errno? { bytes.withUnsafeBytes { write($0) } }

    /// Writes all of `bytes` to a file opened without blocking
    /// (`openDevice`), waiting while its reader takes them, but at most
    /// `patience` with nothing taken: then ETIMEDOUT, so a reader that stopped
    /// reading (a FIFO's, a paused terminal's) cannot hang the writer, nor a
    /// slow one cut it off part way.
    public func write(_ bytes: [UInt8], patience: Duration) -> Errno? {
        let (seconds, attoseconds) = patience.components
        let millis = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if n > 0 {
                done += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            guard n < 0 && errno == EAGAIN else { return n == 0 ? .ioError : Errno(rawValue: errno) }
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let count = poll(&ready, 1, millis)
            if count == 0 { return .timedOut }
            if count < 0 && errno != EINTR { return Errno(rawValue: errno) }
        }
        return nil
    }

    /// fsync(2): the bytes are on the disk.
    public func sync() -> Errno? { fsync(descriptor) == 0 ? nil : Errno(rawValue: errno) }

    /// Closes the file (once; later calls do nothing); close(2)'s error.
    @discardableResult
    public func close() -> Errno? {
        guard descriptor >= 0 else { return nil }
        let result = Glibc.close(descriptor)
        descriptor = -1
        return result == 0 ? nil : Errno(rawValue: errno)
    }
}
