/// Why a bitmap cannot serve as the content tile or an alpha mask as the
/// ribbon art. `description` is one line naming the limit that was broken.
public struct ArtError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
