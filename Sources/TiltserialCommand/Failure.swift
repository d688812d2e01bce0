import TiltPipeline

/// Every way `tiltserial` can stop short, each with its own exit code
/// (docs/usage.md lists them) and a one-line message that names the fix.
public struct Failure: Error, CustomStringConvertible, Sendable {
    public enum Code: Int32, CaseIterable, Sendable {
        case noSuchPort = 10
        case permissionDenied = 11
        case protocolMismatch = 12
        case portBusy = 13
        case notASerialDevice = 14
        case noValidFrames = 15
        case noBoardFound = 16
        case deviceGone = 17
        case badInputFile = 18
        case ioError = 19
        case emulatorFailed = 20
        case badSettings = 21
        /// A hook (`--on-pull CMD`) cannot run: no such program, a directory, not executable.
        case badHook = 22
        /// `calibrate` could not finish: the board never kept still, a tilt went
        /// the wrong way, or Ctrl-C; nothing was written.
        case calibrationFailed = 23
    }

    public let code: Code
    public let message: String
    /// What the run had done when it stopped (a live run that got as far as
    /// opening the port): printed before the error line.
    public var summary: HostSummary?

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
