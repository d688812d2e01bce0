import TiltExitStatus
import TiltPipeline

/// Every way `tiltserial` can stop short, each with its exit code
/// (`ExitStatus`, the table both tools share; docs/usage.md lists it) and a one-line message that names the fix.
public struct Failure: Error, CustomStringConvertible, Sendable {
    /// The exit code: the one table both tools share (TiltExitStatus).
    public typealias Code = ExitStatus

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
