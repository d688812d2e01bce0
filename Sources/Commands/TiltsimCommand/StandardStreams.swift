import SerialIO
import Synchronization

/// tiltsim's stdout and stderr. FileHandle's write traps on any error, so a
/// full disk or a closed stdout (`> /dev/full`, `>&-`) ended tiltsim with
/// SIGILL; these write with `DescriptorWrite`. A reader gone (EPIPE, with
/// SIGPIPE ignored: `| head`) only ends what stdout shows; any other failure
/// is kept, and the command then ends with `lostLine` and ioError, as
/// tiltserial does. stderr's own failures are dropped: nowhere is left to say them.
enum StandardStreams {
    /// A failed write's errno and strerror text.
    struct Failure: Sendable {
        let code: Int32
        let description: String
    }

    private static let stdout = Mutex<(failure: Failure?, readerGone: Bool)>((nil, false))

    /// Writes `bytes` to stdout, unless a write there failed or its reader went.
    static func out(_ bytes: [UInt8]) {
        stdout.withLock { state in
            guard state.failure == nil, !state.readerGone else { return }
            switch bytes.withUnsafeBytes({ DescriptorWrite.all($0, to: 1) }) {
            case nil: break
            case .brokenPipe?: state.readerGone = true
            case let error?: state.failure = Failure(code: error.rawValue, description: error.description)
            }
        }
    }

    /// Writes `text` to stdout (`out(_:)` for bytes).
    static func out(_ text: String) { out(Array(text.utf8)) }

    /// Writes `text` to stderr; a failure there is dropped.
    static func err(_ text: String) {
        var text = text
        _ = text.withUTF8 { DescriptorWrite.all(UnsafeRawBufferPointer($0), to: 2) }
    }

    /// The first failure writing stdout other than its reader going.
    static var outputFailure: Failure? { stdout.withLock { $0.failure } }

    /// The line for a run whose stdout failed: what it showed after that is lost.
    static func lostLine(_ failure: Failure) -> String {
        "writing stdout failed (\(failure.description), errno \(failure.code)); what came after is lost: "
            + "check where stdout goes (its disk may be full), or send it elsewhere"
    }
}
