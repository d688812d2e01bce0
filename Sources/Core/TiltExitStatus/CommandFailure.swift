/// Why a command stopped short, in both tools: the exit status it ends with
/// and one line that names the fix. Each tool prints the line after its own
/// prefix (`tiltserial: error: `, `tiltsim: `).
public struct CommandFailure: Error, CustomStringConvertible, Sendable {
    /// The process's exit status for this failure.
    public let code: ExitStatus
    /// One line, without the tool's prefix, that names the fix.
    public let message: String

    /// A failure with its exit status and its one-line message.
    public init(_ code: ExitStatus, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `message`, as string interpolation shows the failure.
    public var description: String { message }
}
