#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// Names in the file system: folders made, files renamed, removed and
/// created empty, links resolved. Failures are the call's `Errno`.
public enum FileSystem {
    /// mkdir(2) with `permissions` (less the umask); an existing entry counts as made.
    public static func makeFolder(_ path: String, permissions: UInt32) -> Errno? {
        mkdir(path, mode_t(permissions)) == 0 || errno == EEXIST ? nil : Errno(rawValue: errno)
    }

    /// rename(2): `from` replaces `to` atomically (one file system).
    public static func rename(_ from: String, to: String) -> Errno? {
        Glibc.rename(from, to) == 0 ? nil : Errno(rawValue: errno)
    }

    /// unlink(2), errors ignored (a temporary file's clean-up).
    public static func remove(_ path: String) { _ = unlink(path) }

    /// Creates `path` empty if it is missing (an existing file is left as it is); the error when it cannot.
    @discardableResult
    public static func touch(_ path: String) -> Errno? {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return Errno(rawValue: errno) }
        _ = close(fd)
        return nil
    }

    /// What the symlink at `path` names (readlink), or nil when it is no symlink.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink(path, &buffer, 4096)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with symlinks resolved (realpath); `path` itself when that fails.
    public static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
