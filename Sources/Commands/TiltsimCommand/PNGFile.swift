import Foundation
import TiltDisplay
#if canImport(Glibc)
import Glibc
#endif

/// The board's screen as a PNG file: written to FILE.tmp, then renamed, so a
/// reader never sees half a file.
enum PNGFile {
    /// Fails (one line naming the fix) unless a file can be created at `path`'s temporary name.
    static func checkWritable(_ path: String) throws(TiltsimFailure) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .cannotCreate("\(path): cannot write a PNG there (\(String(cString: strerror(errno)))); pick a writable directory")
        }
        close(fd)
        unlink(temporary)
    }

    /// `lit`: the gray level of a lit pixel (the display's contrast as brightness).
    static func write(_ screen: Screen, to path: String, scale: Int = 4, lit: UInt8 = 0xFF) throws(TiltsimFailure) {
        let bytes = PNGEncoder.encode(screen, scale: scale, lit: lit)
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)), rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .cannotCreate("\(path): cannot write the PNG; check the directory exists and is writable")
        }
    }
}
