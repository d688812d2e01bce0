import SerialIO
import Synchronization
import SystemPackage
import Logging

/// Where a command's text goes: stdout (data: JSON lines) and stderr (people:
/// the live view, log lines, errors). Tests pass a capturing console to run
/// commands in-process.
public final class Console: Sendable {
    /// Writes text to stdout: data (the --json lines, listings), never the view or logs.
    public let writeOut: @Sendable (String) -> Void
    /// The same as `writeOut`, for bytes already UTF-8 (the JSON tick lines).
    public let writeOutBytes: @Sendable (UnsafeRawBufferPointer) -> Void
    /// Writes text to stderr: the live view, log lines and the one-line errors.
    public let writeErr: @Sendable (String) -> Void
    /// stderr is a terminal: draw the live view instead of log lines.
    public let errIsTerminal: Bool
    /// The terminal the view draws on: size, colour, keys.
    public let screen: TerminalScreen
    /// The first error writing stdout other than a reader gone (a full disk,
    /// EIO, a closed descriptor): the data after it is lost, and the command
    /// must not end as if it were not (`Tiltserial.main` turns it into ioError).
    public var outputFailure: Errno? { output.failure }
    private let output: OutputState

    /// - Parameter outBytes: writes UTF-8 bytes to stdout (default: as a String through `out`).
    public convenience init(errIsTerminal: Bool, screen: TerminalScreen = .fixed(columns: 80, rows: 24),
                            out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                            outBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil) {
        self.init(errIsTerminal: errIsTerminal, screen: screen, output: OutputState(), out: out, err: err, outBytes: outBytes)
    }

    init(errIsTerminal: Bool, screen: TerminalScreen, output: OutputState,
         out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
         outBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)?) {
        self.output = output
        self.errIsTerminal = errIsTerminal
        self.screen = screen
        writeOut = out
        writeOutBytes = outBytes ?? { out(String(decoding: $0, as: UTF8.self)) }
        writeErr = err
    }

    /// The process's own stdout and stderr.
    public static func standard(onStdoutClosed: @escaping @Sendable () -> Void = {}) -> Console {
        descriptors(out: 1, err: 2, errIsTerminal: TerminalInfo.isTerminal(2), onOutClosed: onStdoutClosed)
    }

    /// Writes to two descriptors. `onOutClosed` runs when a write to `out` finds
    /// its reader gone (EPIPE: `tiltserial --json | head` after head exits), so
    /// the command can stop cleanly instead of writing into the void.
    /// Another failure (ENOSPC, EIO, EBADF) is kept in `outputFailure`, stops
    /// further writes to `out` and stops the command the same way.
    static func descriptors(out: Int32, err: Int32, errIsTerminal: Bool,
                            onOutClosed: @escaping @Sendable () -> Void) -> Console {
        let state = OutputState()
        let wrote: @Sendable (Errno?) -> Void = { error in
            guard let error else { return }
            // A stop signal while stdout's reader took nothing: as if it had gone.
            if error == .interrupted { state.interrupted = true }
            if error == .brokenPipe || error == .interrupted || state.keep(error) { onOutClosed() }
        }
        let stopping: @Sendable () -> Bool = { SignalBytes.stopRequested }
        return Console(errIsTerminal: errIsTerminal, screen: errIsTerminal ? .standard() : .fixed(columns: 80, rows: 24),
                       output: state,
                       out: { if state.failure == nil && !state.interrupted { wrote(writeAll(out, $0, givingUp: stopping)) } },
                       err: { _ = writeAll(err, $0) },
                       outBytes: { if state.failure == nil && !state.interrupted { wrote(DescriptorWrite.all($0, to: out, givingUp: stopping)) } })
    }

    /// The first failure writing stdout, shared by a console and its writers.
    final class OutputState: Sendable {
        private let first = Mutex<Errno?>(nil)
        private let gaveUp = Mutex(false)
        var failure: Errno? { first.withLock { $0 } }
        /// A stop signal interrupted a write its reader was not taking: stdout is written no more.
        var interrupted: Bool {
            get { gaveUp.withLock { $0 } }
            set { gaveUp.withLock { $0 = newValue } }
        }
        /// Keeps `error` if it is the first; true then.
        func keep(_ error: Errno) -> Bool {
            first.withLock { first in
                guard first == nil else { return false }
                first = error
                return true
            }
        }
    }

    /// A logger whose lines go to this console's stderr as `tiltserial: message`.
    public func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "tiltserial") { _ in ConsoleLogHandler(console: self) }
        logger.logLevel = level
        return logger
    }

    /// Writes all of `text`; the error when the descriptor refuses it.
    @discardableResult
    static func writeAll(_ fd: Int32, _ text: String, givingUp: () -> Bool = { false }) -> Errno? {
        var text = text
        return text.withUTF8 { DescriptorWrite.all(UnsafeRawBufferPointer($0), to: fd, givingUp: givingUp) }
    }
}

/// Collects a console's output in memory (tests, the demo), with a way to
/// wait for some output to appear.
public final class CapturedConsole: Sendable {
    final class Storage: @unchecked Sendable {
        let condition = Condition()
        var out = ""
        var err = ""
        func append(_ text: String, toErr: Bool) {
            condition.changing { if toErr { err += text } else { out += text } }
        }
    }
    private let storage = Storage()
    /// The console whose writes land here; pass it to the command under test.
    public let console: Console

    /// An empty capture; by default stderr is no terminal and the view's screen is 140 × 45 cells.
    public init(errIsTerminal: Bool = false, screen: TerminalScreen = .fixed(columns: 140, rows: 45)) {
        let storage = self.storage
        console = Console(
            errIsTerminal: errIsTerminal, screen: screen,
            out: { storage.append($0, toErr: false) },
            err: { storage.append($0, toErr: true) })
    }

    /// Everything written to stdout so far.
    public var out: String { storage.condition.withLock { storage.out } }
    /// Everything written to stderr so far.
    public var err: String { storage.condition.withLock { storage.err } }

    /// Waits until `predicate(out, err)` holds; false after `timeout`.
    public func waitFor(timeout: Duration, _ predicate: (String, String) -> Bool) -> Bool {
        storage.condition.wait(timeout: timeout) { predicate(storage.out, storage.err) }
    }
}

/// swift-log handler: one plain line per message, warnings and errors labelled.
struct ConsoleLogHandler: LogHandler {
    let console: Console
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let label: String = switch event.level {
        case .warning: "warning: "
        case .error, .critical: "error: "
        default: ""
        }
        console.writeErr("tiltserial: \(label)\(event.message)\n")
    }
}
