import SerialIO
import SystemPackage
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

    /// The default file's bytes, or nil when there is no such file (before a
    /// calibration; also when a folder on its way is a file, as with
    /// XDG_CONFIG_HOME=/dev/null).
    static func bytesIfPresent(path: String) throws(Failure) -> [UInt8]? {
        try read(path: path, missingIsNil: true)
    }

    private static func read(path: String, missingIsNil: Bool) throws(Failure) -> [UInt8]? {
        let limit = SettingsResolver.maxConfigBytes
        // A FIFO's open waits for a writer, and with none it waited in silence:
        // opened without waiting, its first read tells (end of file: nobody writes it).
        let fifo = if case .success(let info) = FileStatus.of(path), info.kind == .fifo { true } else { false }
        let file: ReadOnlyFile
        do {
            file = try ReadOnlyFile(path, nonBlocking: fifo)
        } catch {
            if missingIsNil && (error == .noSuchFileOrDirectory || error == .notDirectory) { return nil }
            throw Failure(.badSettings, "\(path): cannot open the config file (\(error)); check the path")
        }
        if let info = file.status(), info.kind == .regular, info.size > limit {
            throw Failure(.badSettings, SettingsResolver.tooLarge(path: path, bytes: Int(info.size)).message)
        }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var (count, error) = bytes.withUnsafeMutableBytes { file.read(into: $0) }
        if fifo {
            if count == 0 && error == nil {
                // No writer now: one whose open ours let through counts a moment later.
                guard file.waitReadable(milliseconds: 2000) else {
                    throw Failure(.badSettings, "\(path): a FIFO nobody writes to; start the program that writes it first, or name a file")
                }
                (count, error) = bytes.withUnsafeMutableBytes { file.read(into: $0) }
            }
            if error == .wouldBlock {
                file.setBlocking()  // a writer is there: the rest as it comes
                let (more, moreError) = bytes.withUnsafeMutableBytes { file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
                count += more
                error = moreError
            }
        }
        if let error {
            throw Failure(.badSettings, "\(path): cannot read the config file (\(error)); check the path")
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
        func failure(_ what: String, _ error: Errno) -> Failure {
            Failure(.ioError, "\(path): cannot \(what) (\(error)); check the folder's permissions")
        }
        if let error = makeFolders(ConfigPaths.folder(of: path)) { throw failure("create its folder", error) }
        let status = try? FileStatus.of(path).get()
        if let status, status.kind != .regular { throw Failure(.ioError, "\(path): not a regular file; move it away") }
        let target = status != nil ? FileSystem.resolved(path) : path
        if case .failure(let f) = AtomicFile.replace(target, with: bytes) { throw failure(f.step.rawValue, Errno(rawValue: f.code)) }
    }

    /// `mkdir -p` with 0700 for the folders it makes; the error on failure.
    static func makeFolders(_ folder: String) -> Errno? {
        if let status = try? FileStatus.of(folder).get() { return status.kind == .directory ? nil : .notDirectory }
        let parent = ConfigPaths.folder(of: folder)
        if parent != folder, let error = makeFolders(parent) { return error }
        return FileSystem.makeFolder(folder, permissions: 0o700)
    }
}
