#if canImport(Glibc)
import Glibc
#endif
import TiltCore
import TiltPipeline

/// Writes `--record` records to a file as they happen (format: TiltPipeline.Recording).
///
/// A regular file (new or existing) is written under a temporary name in its
/// folder (`.NAME.XXXXXX`) and renamed over `path` at the first record from
/// the board, so a run that fails or hears nothing leaves an existing
/// recording untouched; from then on records go straight to `path`, so a
/// killed host still leaves a recording cut short at a record. A character
/// device or FIFO (`/dev/null`, a pipe) is written directly and without
/// blocking (a reader that falls behind stops the recording, not the run); a
/// directory is refused. A write error is kept as one line for `newFailure` and stops the
/// recording; what could not be written is counted.
final class RecordingWriter {
    /// The path as given.
    let path: String
    /// Where the file finally goes (`path` with a symlink resolved).
    private let target: String
    /// The temporary file, until it is renamed into place (nil for devices and FIFOs).
    private(set) var temporaryPath: String?
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var unreported: String?
    /// A write failed: recording stopped.
    private(set) var failed = false
    /// Records appended, written or not.
    private(set) var records = 0
    /// Records, and their bytes (record headers included), not written because of a failure.
    private(set) var recordsNotWritten = 0
    private(set) var bytesNotWritten = 0

    /// Creates the temporary file and writes the header.
    /// - Throws: `.badFile` in one line when it cannot (folder missing, no permission, a directory, disk full).
    init(path: String, baud: UInt32) throws(Failure) {
        self.path = path
        var info = stat()
        let exists = stat(path, &info) == 0
        let kind = info.st_mode & S_IFMT
        func failure(_ what: String, _ code: Int32 = errno) -> Failure {
            Failure(.badFile, "\(path): cannot \(what) (\(String(cString: strerror(code)))); check the path and permissions")
        }
        if exists && kind == S_IFDIR {
            throw Failure(.badFile, "\(path): is a directory; name a file for --record")
        }
        if exists && kind != S_IFREG {
            // A device or a FIFO: no temp file, no rename. Non-blocking, so a FIFO
            // nobody reads fails at once and a reader that falls behind stops the
            // recording (EAGAIN), never the run.
            target = path
            fd = Glibc.open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            guard fd >= 0 else { throw failure("open it for the recording") }
        } else {
            let target = exists ? Self.resolved(path) : path
            self.target = target
            let slash = target.lastIndex(of: "/")
            let folder = slash.map { String(target[...$0]) } ?? ""
            let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
            var template = Array((folder + "." + name + ".XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw failure("create the recording") }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // --on-pull children must not inherit it
            temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)  // mkstemp filled in the X's
            // mkstemp makes it 0600; keep an existing file's mode, else 0666 less the umask
            // (read by setting it back at once: nothing else creates files this early).
            let mask = umask(0o022)
            umask(mask)
            _ = fchmod(fd, exists ? info.st_mode & 0o7777 : 0o666 & ~mask)
        }
        buffer.reserveCapacity(4096 + 64)
        let header = Recording.header(baud: baud)
        if let error = write(header) {
            abandon()
            throw failure("write the recording", error)
        }
    }

    /// Appends one record (several when `bytes` is over 65535 bytes). The
    /// first record from the board renames the temporary file into place.
    func append(_ bytes: UnsafeRawBufferPointer, _ direction: Recording.Direction, at time: HostTime) {
        buffer.removeAll(keepingCapacity: true)
        Recording.append(bytes, direction: direction, at: time, to: &buffer)
        records += 1
        guard fd >= 0, !failed else {
            recordsNotWritten += 1
            bytesNotWritten += buffer.count
            return
        }
        if let error = write(buffer) {
            failed = true
            recordsNotWritten += 1
            bytesNotWritten += buffer.count
            unreported = "\(path): cannot write the recording (\(String(cString: strerror(error)))); recording stopped, the run goes on"
            return
        }
        if direction == .fromBoard { moveIntoPlace() }
    }

    /// A write error not reported yet, once: one line for the runner to say.
    var newFailure: String? {
        defer { unreported = nil }
        return unreported
    }

    /// Closes the file: renamed into place if anything came from the board,
    /// else the temporary file is removed and an existing file is left as it was.
    func finish() {
        closeFile()
        if let temporaryPath { unlink(temporaryPath) }
        temporaryPath = nil
    }

    /// Closes and removes the temporary file whatever was recorded (a file
    /// already renamed into place stays).
    func abandon() {
        finish()
    }

    deinit { finish() }

    /// Once there is something to keep: atomically replaces `target`.
    private func moveIntoPlace() {
        guard let temporaryPath else { return }
        if rename(temporaryPath, target) == 0 {
            self.temporaryPath = nil
        } else {
            let error = errno
            failed = true
            unreported = "\(path): cannot put the recording in place (\(String(cString: strerror(error)))); recording stopped"
            closeFile()
            unlink(temporaryPath)
            self.temporaryPath = nil
        }
    }

    private func closeFile() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    /// Writes all of `bytes`; returns errno on failure.
    private func write(_ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return n == 0 ? EIO : errno }
            }
            return nil
        }
    }

    /// `path` with symlinks resolved, so renaming replaces the file a link points to, not the link.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
