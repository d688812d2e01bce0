#if canImport(Glibc)
import Glibc
#endif

/// A file read block by block into one reused buffer, so `replay` holds a
/// fixed amount of it whatever its size.
final class InputFile {
    /// 64 KiB: large enough that the read calls cost little, small next to the process.
    static let blockSize = 1 << 16

    let path: String
    private var fd: Int32
    private var block: [UInt8]

    /// - Throws: `.badInputFile` in one line naming the path and the reason.
    init(path: String) throws(Failure) {
        self.path = path
        fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.failure(path, errno) }
        block = [UInt8](repeating: 0, count: Self.blockSize)
    }

    deinit { if fd >= 0 { _ = Glibc.close(fd) } }

    /// Fills the block as far as the file goes (short only at the end) and
    /// calls `body` with what was read; an empty buffer means the end.
    func next<R>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> R) throws(Failure) -> R {
        var count = 0
        let path = self.path, fd = self.fd
        let error: Int32? = block.withUnsafeMutableBytes { raw in
            while count < raw.count {
                let n = Glibc.read(fd, raw.baseAddress! + count, raw.count - count)
                if n > 0 { count += n } else if n == 0 { return nil } else if errno != EINTR { return errno }
            }
            return nil
        }
        if let error { throw Self.failure(path, error) }
        return try block.withUnsafeBytes { raw in
            Result { () throws(Failure) in try body(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
        }.get()
    }

    private static func failure(_ path: String, _ code: Int32) -> Failure {
        Failure(.badInputFile, "\(path): cannot read it (\(String(cString: strerror(code)))); check the path")
    }
}
