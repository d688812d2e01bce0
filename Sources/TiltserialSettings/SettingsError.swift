/// A setting, option or config file that cannot be used. `description` is
/// one line naming where the value came from and what it must be; the
/// command turns it into exit code badSettings (21).
public struct SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
