/// Why a PBM or PGM image could not be read. `description` is one line naming
/// the problem and, where it helps, the fix.
public struct NetpbmError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
