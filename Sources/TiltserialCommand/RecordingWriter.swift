#if canImport(Glibc)
import Glibc
#endif
import TiltPipeline

/// Appends `--record` records to a file as they happen (format: TiltPipeline.Recording).
/// One reusable buffer; a failed write stops recording and is reported once at the end.
final class RecordingWriter {
    let path: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private(set) var failed = false

    init(path: String, baud: UInt32) throws(Failure) {
        self.path = path
        fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw Failure(.badInputFile, "\(path): cannot create the recording (\(String(cString: strerror(errno)))); check the directory and permissions")
        }
        buffer.reserveCapacity(4096 + 64)
        write(Recording.header(baud: baud))
    }

    func append(_ bytes: UnsafeRawBufferPointer, _ direction: Recording.Direction, at hostMicros: UInt64) {
        buffer.removeAll(keepingCapacity: true)
        Recording.append(bytes, direction: direction, hostMicros: hostMicros, to: &buffer)
        write(buffer)
    }

    private func write(_ bytes: [UInt8]) {
        guard fd >= 0, !failed else { return }
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { failed = true; return }
            }
        }
    }

    func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }
}
