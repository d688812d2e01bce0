#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// What stat(2) says about a file, in the few words the tools need.
public struct FileStatus: Sendable, Equatable {
    /// The file's type.
    public enum Kind: Sendable, Equatable {
        /// A regular file.
        case regular
        /// A directory (a folder: refused where a file is named).
        case directory
        /// A character device (/dev/null, a tty).
        case characterDevice
        /// A FIFO (named pipe) or a pipe.
        case fifo
        /// Anything else (block device, socket, symlink with `lstat`).
        case other
    }

    /// The file's type.
    public let kind: Kind
    /// Its size in bytes (regular files).
    public let size: Int64
    /// Its permission bits (mode & 0o7777).
    public let permissions: UInt32
    /// The device and inode: equal for two names of one file.
    public let identity: [UInt64]

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFCHR: kind = .characterDevice
        case S_IFIFO: kind = .fifo
        default: kind = .other
        }
        size = Int64(info.st_size)
        permissions = UInt32(info.st_mode & 0o7777)
        identity = [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// `path`'s status (symlinks followed).
    public static func of(_ path: String) -> Result<FileStatus, Errno> {
        var info = stat()
        return stat(path, &info) == 0 ? .success(FileStatus(info)) : .failure(Errno(rawValue: errno))
    }

    /// An open descriptor's status (fstat).
    public static func of(descriptor fd: Int32) -> Result<FileStatus, Errno> {
        var info = stat()
        return fstat(fd, &info) == 0 ? .success(FileStatus(info)) : .failure(Errno(rawValue: errno))
    }

    /// Something exists at `path` (access F_OK).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// We may execute `path` (access X_OK: what exec checks; for root at least one x bit).
    public static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// We may write `path` (access W_OK; root may write nearly anything).
    public static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }
}
