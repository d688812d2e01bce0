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

    /// - Throws: `.badFile` in one line naming the path and the reason.
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
        let fd = self.fd
        let (count, error) = block.withUnsafeMutableBytes { readFilling(fd, $0) }
        if let error { throw Self.failure(path, error) }
        return try block.withUnsafeBytes { raw in
            Result { () throws(Failure) in try body(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
        }.get()
    }

    private static func failure(_ path: String, _ code: Int32) -> Failure {
        Failure(.badFile, "\(path): cannot read it (\(String(cString: strerror(code)))); check the path")
    }
}

/// Reads from `fd` until `buffer` is full or the end of the file (retrying
/// EINTR): the bytes read, and the errno of a failed read (nil: none).
func readFilling(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> (count: Int, errno: Int32?) {
    var count = 0
    while count < buffer.count {
        let n = Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
        if n > 0 { count += n } else if n == 0 { break } else if errno != EINTR { return (count, errno) }
    }
    return (count, nil)
}
