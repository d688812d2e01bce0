#if canImport(Glibc)
import Glibc
#endif
import TiltDisplay

/// Writes the board's screen as a PNG file (4× scale), for `replay --render` and `demo --png`.
enum PNGFile {
    /// - Throws: `Failure` with `code` and a line naming the path and the cause.
    static func write(_ screen: Screen, to path: String, failing code: Failure.Code) throws(Failure) {
        let bytes = PNGEncoder.encode(screen, scale: 4)
        guard let file = fopen(path, "wb") else {
            throw Failure(code, "\(path): cannot write the PNG (\(String(cString: strerror(errno)))); check the directory and permissions")
        }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count, fflush(file) == 0 else {
            throw Failure(code, "\(path): writing the PNG failed part way (disk full?)")
        }
    }
}
