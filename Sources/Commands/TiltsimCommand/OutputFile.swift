import SerialIO
import TiltExitStatus

/// A file tiltsim writes whole because a user named it (a PNG screen),
/// checked before the run. A regular file, or a name not taken yet, is
/// replaced all at once (`AtomicFile`: a reader never sees half a PNG). A
/// device or FIFO already there (/dev/null, a pipe a reader waits on) is
/// written in place, never renamed over: the rename made /dev/null a plain
/// file (as root) and took a FIFO from its reader. It is opened at the check
/// without blocking (a FIFO nobody reads fails at once) and kept open for the
/// run, so its reader sees every write and one end of file; a reader that
/// takes nothing for `patience` fails the write rather than hang tiltsim.
final class OutputFile {
    let path: String
    /// What is written, for messages ("a PNG").
    let what: String
    private let device: WritableFile?

    /// How long a device's or FIFO's reader may take nothing before a write fails.
    static let patience = Duration.seconds(5)

    /// Fails (one line naming the fix) unless `what` can be written at `path`.
    init(_ path: String, what: String) throws(CommandFailure) {
        self.path = path
        self.what = what
        device = try Self.openIfNotRegular(path, what: what)
        if device == nil, let error = Self.probe(path) {
            throw .cannotCreate("\(path): cannot write \(what) there (\(error)); pick a writable directory")
        }
    }

    /// The files at `paths`, each checked once, by path.
    static func each(_ paths: [String], what: String) throws(CommandFailure) -> [String: OutputFile] {
        var files: [String: OutputFile] = [:]
        for path in paths where files[path] == nil { files[path] = try OutputFile(path, what: what) }
        return files
    }

    /// `files[path]`, else the file at `path` checked now (one not named before the run).
    static func named(_ path: String, in files: [String: OutputFile], what: String) throws(CommandFailure) -> OutputFile {
        if let file = files[path] { return file }
        return try OutputFile(path, what: what)
    }

    /// Writes `bytes` as the file's whole content (a device or FIFO: as its next bytes).
    func write(_ bytes: [UInt8]) throws(CommandFailure) {
        if let device {
            if let error = device.write(bytes, patience: Self.patience) {
                throw Self.writeFailure(path, what, timedOut: error == .timedOut, reason: "\(error)")
            }
            return
        }
        if case .failure(let failure) = AtomicFile.replace(path, with: bytes) {
            throw .cannotCreate("\(path): cannot \(failure.step.rawValue) (\(failure.reason)); check the directory exists and is writable")
        }
    }

    /// A device or FIFO at `path`, opened for writing in place; nil for a
    /// regular file or none. A folder is refused.
    static func openIfNotRegular(_ path: String, what: String) throws(CommandFailure) -> WritableFile? {
        guard case .success(let status) = FileStatus.of(path), status.kind != .regular else { return nil }
        guard status.kind != .directory else { throw .cannotCreate("\(path) is a folder; name a file for \(what)") }
        switch WritableFile.openDevice(path) {
        case .success(let file): return file
        case .failure(.noSuchAddressOrDevice): throw .cannotCreate("\(path): a FIFO nobody reads; start its reader first, or name a file")
        case .failure(let error): throw .cannotCreate("\(path): cannot write \(what) there (\(error)); pick a writable path")
        }
    }

    /// A failed write's one line.
    static func writeFailure(_ path: String, _ what: String, timedOut: Bool, reason: String) -> CommandFailure {
        guard !timedOut else {
            return .cannotCreate("\(path): its reader took nothing for \(patience.components.seconds) s; read it, or name a file")
        }
        return .cannotCreate("\(path): cannot write \(what) (\(reason)); give another file")
    }

    /// Why no file can be made beside `path` (where `AtomicFile` puts its
    /// temporary file: strerror's words); nil when one can. The probe is a new name (mkstemp),
    /// so no file of the user's is touched.
    static func probe(_ path: String) -> String? {
        switch WritableFile.temporary(beside: path) {
        case .success(let made):
            made.file.close()
            FileSystem.remove(made.path)
            return nil
        case .failure(let error):
            return "\(error)"
        }
    }
}
