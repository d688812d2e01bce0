import SerialIO
import SystemPackage
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
    private var file: WritableFile?
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
        // An empty name made a hidden temporary file in the current folder, and no rename could follow.
        guard !path.isEmpty else { throw Failure(.badFile, "--record: an empty file name; name the recording, e.g. --record session.tiltrec") }
        let status = try? FileStatus.of(path).get()
        func failure(_ what: String, _ error: Errno) -> Failure {
            Failure(.badFile, "\(path): cannot \(what) (\(error)); check the path and permissions")
        }
        if status?.kind == .directory {
            throw Failure(.badFile, "\(path): is a directory; name a file for --record")
        }
        if let status, status.kind != .regular {
            // A device or a FIFO: no temp file, no rename. Non-blocking, so a FIFO
            // nobody reads fails at once and a reader that falls behind stops the
            // recording (EAGAIN), never the run.
            target = path
            switch WritableFile.openDevice(path) {
            case .success(let opened): file = opened
            case .failure(let error): throw failure("open it for the recording", error)
            }
        } else {
            // Beside the file a symlink names, so the rename replaces that file, not the link;
            // an existing file's permissions are kept (`WritableFile.temporary`).
            let target = status != nil ? FileSystem.resolved(path) : path
            self.target = target
            switch WritableFile.temporary(beside: target) {
            case .success(let made): (file, temporaryPath) = (made.file, made.path)
            case .failure(let error): throw failure("create the recording", error)
            }
        }
        buffer.reserveCapacity(4096 + 64)
        let header = Recording.header(baud: baud)
        if let error = file?.write(header) {
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
        guard let file, !failed else {
            recordsNotWritten += 1
            bytesNotWritten += buffer.count
            return
        }
        if let error = file.write(buffer) {
            failed = true
            recordsNotWritten += 1
            bytesNotWritten += buffer.count
            unreported = "\(path): cannot write the recording (\(error)); recording stopped, the run goes on"
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
        if let temporaryPath { FileSystem.remove(temporaryPath) }
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
        if let error = FileSystem.rename(temporaryPath, to: target) {
            failed = true
            unreported = "\(path): cannot put the recording in place (\(error)); recording stopped"
            closeFile()
            FileSystem.remove(temporaryPath)
        }
        self.temporaryPath = nil
    }

    private func closeFile() {
        file?.close()
        file = nil
    }
}
