import SerialIO
import TiltDisplay
import TiltExitStatus

/// Writes the board's screen as a PNG file (4× scale), for `replay --render` and `demo --png`.
enum PNGFile {
    /// - Throws: `Failure` with `code` and a line naming the path and the cause.
    /// Whether `path` could be written, checked before the work that makes
    /// its picture (a replay of 200 MB said so only at its end, its summary lost).
    static func checkWritable(_ path: String, failing code: ExitStatus) throws(Failure) {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if case .success(let info) = FileStatus.of(path), info.kind == .directory {
            throw Failure(code, "\(path): is a directory; name a .png file")
        }
        guard case .success(let info) = FileStatus.of(folder), info.kind == .directory else {
            throw Failure(code, "\(path): cannot write the PNG (no such folder \(folder)); create it or name another file")
        }
        if !FileStatus.isWritable(FileStatus.exists(path) ? path : folder) {
            throw Failure(code, "\(path): cannot write the PNG (permission denied); check the folder's permissions")
        }
    }

    static func write(_ screen: Screen, to path: String, failing code: ExitStatus) throws(Failure) {
        let bytes = PNGEncoder.encode(screen, scale: 4)
        let file: WritableFile
        switch WritableFile.create(path) {
        case .success(let created): file = created
        case .failure(.noSuchAddressOrDevice):
            throw Failure(code, "\(path): a pipe nobody reads; start its reader first, or name a file")
        case .failure(let error):
            throw Failure(code, "\(path): cannot write the PNG (\(error)); check the directory and permissions")
        }
        guard file.write(bytes) == nil else {
            throw Failure(code, "\(path): writing the PNG failed part way (disk full?)")
        }
    }
}
