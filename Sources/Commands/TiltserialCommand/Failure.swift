import TiltExitStatus
import TiltPipeline

/// Every way `tiltserial` can stop short, each with its exit code
/// (`ExitStatus`, the table both tools share; docs/usage.md lists it) and a one-line message that names the fix.
public struct Failure: Error, CustomStringConvertible, Sendable {
    /// The exit code: the one table both tools share (TiltExitStatus).
    public typealias Code = ExitStatus

    /// The process's exit status for this failure.
    public let code: Code
    /// One line, without the `tiltserial: error:` prefix, that names the fix.
    public let message: String
    /// What the run had done when it stopped (a live run that got as far as
    /// opening the port): printed before the error line.
    public var summary: HostSummary?

    /// A failure with its exit code and its one-line message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
