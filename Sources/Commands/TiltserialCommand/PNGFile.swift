import SerialIO
import TiltDisplay
import TiltExitStatus

/// Writes the board's screen as a PNG file (4× scale), for `replay --render` and `demo --png`.
enum PNGFile {
    /// - Throws: `Failure` with `code` and a line naming the path and the cause.
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
