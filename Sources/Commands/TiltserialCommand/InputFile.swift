import SerialIO
import SystemPackage

/// A file read block by block into one reused buffer, so `replay` holds a
/// fixed amount of it whatever its size.
final class InputFile {
    /// 64 KiB: large enough that the read calls cost little, small next to the process.
    static let blockSize = 1 << 16

    let path: String
    private let file: ReadOnlyFile
    private var block: [UInt8]

    /// - Throws: `.badFile` in one line naming the path and the reason.
    init(path: String) throws(Failure) {
        self.path = path
        do { file = try ReadOnlyFile(path) } catch { throw Self.failure(path, error) }
        block = [UInt8](repeating: 0, count: Self.blockSize)
    }

    /// Fills the block as far as the file goes (short only at the end) and
    /// calls `body` with what was read; an empty buffer means the end.
    func next<R>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> R) throws(Failure) -> R {
        let file = self.file
        let (count, error) = block.withUnsafeMutableBytes { file.read(into: $0) }
        if let error { throw Self.failure(path, error) }
        return try block.withUnsafeBytes { raw in
            Result { () throws(Failure) in try body(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
        }.get()
    }

    private static func failure(_ path: String, _ error: Errno) -> Failure {
        Failure(.badFile, "\(path): cannot read it (\(error)); check the path")
    }
}
