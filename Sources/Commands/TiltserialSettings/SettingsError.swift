/// A setting, option or config file that cannot be used. `description` is
/// one line naming where the value came from and what it must be; the
/// command turns it into exit code badSettings (21).
public struct SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole line, without a "tiltserial:" prefix, e.g. `config.json: unknown key "tickMS"; known keys: ...`.
    public let message: String
    /// An error with `message` as its one line.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
