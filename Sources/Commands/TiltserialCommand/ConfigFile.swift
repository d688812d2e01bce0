#if canImport(Glibc)
import Glibc
#endif
import SerialIO
import TiltserialSettings

/// Config files on disk: reads them (at most `SettingsResolver.maxConfigBytes`,
/// refused by its size before reading when it is a regular file, and read no
/// further than that when it is a pipe or device) for the pure
/// `SettingsResolver.addConfig`, and replaces them atomically for `calibrate`.
enum ConfigFile {
    static func bytes(path: String) throws(Failure) -> [UInt8] {
        guard let bytes = try read(path: path, missingIsNil: false) else { return [] }
        return bytes
    }

    /// The file's bytes, or nil when there is no such file (the default file before a calibration).
    static func bytesIfPresent(path: String) throws(Failure) -> [UInt8]? {
        try read(path: path, missingIsNil: true)
    }

    private static func read(path: String, missingIsNil: Bool) throws(Failure) -> [UInt8]? {
        let limit = SettingsResolver.maxConfigBytes
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if missingIsNil && errno == ENOENT { return nil }
            throw Failure(.badSettings, "\(path): cannot open the config file (\(String(cString: strerror(errno)))); check the path")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > limit {
            throw Failure(.badSettings, SettingsResolver.tooLarge(path: path, bytes: Int(info.st_size)).message)
        }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        let (count, error) = bytes.withUnsafeMutableBytes { readFilling(fd, $0) }
        if let error {
            throw Failure(.badSettings, "\(path): cannot read the config file (\(String(cString: strerror(error)))); check the path")
        }
        guard count <= limit else {
            throw Failure(.badSettings, "\(path): more than \(limit) bytes is too large for a config file; see docs/usage.md")
        }
        return Array(bytes[..<count])
    }

    /// Replaces `path` with `bytes` atomically: a temporary file in the same
    /// folder (`.config.json.XXXXXX`), written, flushed to disk, then renamed
    /// over it, so a crash leaves the old file or the new one, never half of
    /// one. Missing folders are made (0700, as the XDG specification asks); an
    /// existing file keeps its permissions, a new one gets 0666 less the umask;
    /// a symlink (dotfiles kept elsewhere) is followed: the file it names is replaced.
    static func replace(path: String, with bytes: [UInt8]) throws(Failure) {
        func failure(_ what: String, _ code: Int32 = errno) -> Failure {
            Failure(.ioError, "\(path): cannot \(what) (\(String(cString: strerror(code)))); check the folder's permissions")
        }
        if let error = makeFolders(ConfigPaths.folder(of: path)) { throw failure("create its folder", error) }
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists && (info.st_mode & S_IFMT) != S_IFREG { throw Failure(.ioError, "\(path): not a regular file; move it away") }
        let target = exists ? resolved(path) : path
        if case .failure(let f) = AtomicFile.replace(target, with: bytes) { throw failure(f.step.rawValue, f.code) }
    }

    /// `path` with symlinks resolved.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// `mkdir -p` with 0700 for the folders it makes; errno on failure.
    static func makeFolders(_ folder: String) -> Int32? {
        var info = stat()
        if stat(folder, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR ? nil : ENOTDIR }
        let parent = ConfigPaths.folder(of: folder)
        if parent != folder, let error = makeFolders(parent) { return error }
        if mkdir(folder, 0o700) == 0 || errno == EEXIST { return nil }
        return errno
    }
}
