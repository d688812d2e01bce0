#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Replaces a file all at once, for both tools (config, pins, PNG screens): a
/// temporary file beside it (`.NAME.XXXXXX`, so the rename stays on one file
/// system), written, flushed to disk, then renamed over it. A crash leaves the
/// old file or the new one, never half of one.
public enum AtomicFile {
    /// Why a replacement failed: the step and its errno (the temporary file is gone).
    public struct Failure: Error, Sendable {
        /// The steps, each with the words a message can use after "cannot".
        public enum Step: String, Sendable {
            /// mkstemp beside the file.
            case createBeside = "create a file beside it"
            /// write, fsync or close.
            case write = "write it"
            /// The rename over the file.
            case putInPlace = "put it in place"
        }
        /// The step that failed.
        public let step: Step
        /// The errno the step failed with.
        public let code: Int32
        /// strerror's text for `code`.
        public var reason: String { String(cString: strerror(code)) }
    }

    /// Replaces `path` (a symlink there is replaced, not followed: resolve it first
    /// to replace the file it names) with `bytes`. An existing file's permissions
    /// are kept; a new file gets 0666 less the umask.
    public static func replace(_ path: String, with bytes: [UInt8]) -> Result<Void, Failure> {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((folder + "/." + name + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(Failure(step: .createBeside, code: errno)) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var info = stat()
        let mask = umask(0o022)
        umask(mask)
        _ = fchmod(fd, stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o666 & ~mask)
        var failure: Failure?
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n > 0 { written += n } else if n < 0 && errno == EINTR { continue } else {
                failure = Failure(step: .write, code: n < 0 ? errno : EIO)
                break
            }
        }
        if failure == nil && fsync(fd) != 0 { failure = Failure(step: .write, code: errno) }
        if close(fd) != 0 && failure == nil { failure = Failure(step: .write, code: errno) }
        if failure == nil && rename(temporary, path) != 0 { failure = Failure(step: .putInPlace, code: errno) }
        if let failure {
            unlink(temporary)
            return .failure(failure)
        }
        return .success(())
    }
}
