#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Replaces a file all at once, for both tools (config, pins, PNG screens): a
/// temporary file beside it (`.NAME.XXXXXX`, so the rename stays on one file
/// system), written, flushed to disk, then renamed over it. A crash leaves the
/// old file or the new one, never half of one.
public enum AtomicFile {
    /// Why a replacement failed: the step and its errno (the temporary file is gone).
    public struct Failure: Error, Sendable {
        /// The steps, each with the words a message can use after "cannot".
        public enum Step: String, Sendable {
            /// mkstemp beside the file.
            case createBeside = "create a file beside it"
            /// write, fsync or close.
            case write = "write it"
            /// The rename over the file.
            case putInPlace = "put it in place"
        }
        /// The step that failed.
        public let step: Step
        /// The errno the step failed with.
        public let code: Int32
        /// strerror's text for `code`.
        public var reason: String { String(cString: strerror(code)) }
    }

    /// Replaces `path` (a symlink there is replaced, not followed: resolve it first
    /// to replace the file it names) with `bytes`. An existing file's permissions
    /// are kept; a new file gets 0666 less the umask.
    public static func replace(_ path: String, with bytes: [UInt8]) -> Result<Void, Failure> {
        let file: WritableFile, temporary: String
        switch WritableFile.temporary(beside: path) {
        case .success(let made): (file, temporary) = made
        case .failure(let error): return .failure(Failure(step: .createBeside, code: error.rawValue))
        }
        var failure = file.write(bytes).map { Failure(step: .write, code: $0.rawValue) }
        if failure == nil, let error = file.sync() { failure = Failure(step: .write, code: error.rawValue) }
        if let error = file.close(), failure == nil { failure = Failure(step: .write, code: error.rawValue) }
        if failure == nil, let error = FileSystem.rename(temporary, to: path) { failure = Failure(step: .putInPlace, code: error.rawValue) }
        if let failure {
            FileSystem.remove(temporary)
            return .failure(failure)
        }
        return .success(())
    }
}
