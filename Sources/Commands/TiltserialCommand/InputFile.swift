import SerialIO
import SystemPackage

/// A file read block by block into one reused buffer, so `replay` holds a
/// fixed amount of it whatever its size.
///
/// A FIFO or pipe (a program writing samples as it makes them) is handed on
/// as its writes come, after a head long enough to tell the format by, so
/// hooks fire with the samples: filling 64 KiB first held a slow writer's
/// samples back until then.
final class InputFile {
    /// 64 KiB: large enough that the read calls cost little, small next to the process.
    static let blockSize = 1 << 16
    /// A stream's first bytes, read whole before any is handed on (`ReplayFormat.detect` looks at 512).
    static let headSize = 512

    let path: String
    private let file: ReadOnlyFile
    private var block: [UInt8]
    /// Not a regular file: reads return what is there.
    private let streaming: Bool
    private var headRead = false

    /// - Parameter waiting: said before opening a FIFO, whose open waits for a writer.
    /// - Throws: `.badFile` in one line naming the path and the reason; nil
    ///   file when a stop signal ended the wait for a FIFO's writer.
    init?(path: String, waiting: (String) -> Void) throws(Failure) {
        self.path = path
        if case .success(let info) = FileStatus.of(path), info.kind == .fifo {
            waiting("\(path) is a FIFO: waiting for a program to write to it (Ctrl-C stops)")
        }
        do { file = try ReadOnlyFile(path) } catch {
            if error == .interrupted && SignalBytes.stopRequested { return nil }
            throw Self.failure(path, error)
        }
        block = [UInt8](repeating: 0, count: Self.blockSize)
        streaming = file.status().map { $0.kind != .regular } ?? false
    }

    /// Fills the block as far as the file goes (short only at the end, or when
    /// a signal interrupts a read and `stopped` says so; a stream's after its
    /// head: what one read gives) and calls `body` with what was read; an
    /// empty buffer means the end, unless `stopped`.
    func next<R>(stopped: () -> Bool, _ body: (UnsafeRawBufferPointer) throws(Failure) -> R) throws(Failure) -> R {
        let file = self.file
        let (count, error) = block.withUnsafeMutableBytes { buffer in
            guard streaming else { return file.read(into: buffer, givingUp: stopped) }
            defer { headRead = true }
            return headRead ? file.readSome(into: buffer, givingUp: stopped)
                            : file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<Self.headSize]), givingUp: stopped)
        }
        if let error { throw Self.failure(path, error) }
        return try block.withUnsafeBytes { raw in
            Result { () throws(Failure) in try body(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
        }.get()
    }

    private static func failure(_ path: String, _ error: Errno) -> Failure {
        Failure(.badFile, "\(path): cannot read it (\(error)); check the path")
    }
}
