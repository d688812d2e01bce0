/// Sizes of the display, the content tile and the content built from it.
///
/// The content is the tile repeated, grown by whole tiles until it is at least
/// four times the display in both directions (the tilt scroller recipe's rule).
public struct ContentGeometry: Hashable, Sendable {
    public static let contentToDisplayRatio = 4

    public let displayWidth: Int
    public let displayHeight: Int
    public let tileWidth: Int
    public let tileHeight: Int

    public init(displayWidth: Int = 128, displayHeight: Int = 64, tileWidth: Int, tileHeight: Int) {
        precondition(displayWidth > 0 && displayHeight > 0 && tileWidth > 0 && tileHeight > 0)
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
    }

    public var contentWidth: Int { Self.grow(tileWidth, toCover: displayWidth * Self.contentToDisplayRatio) }
    public var contentHeight: Int { Self.grow(tileHeight, toCover: displayHeight * Self.contentToDisplayRatio) }

    /// The largest viewport offsets: content minus display, per axis.
    public var maxViewportX: Int { contentWidth - displayWidth }
    public var maxViewportY: Int { contentHeight - displayHeight }

    static func grow(_ tile: Int, toCover target: Int) -> Int {
        tile * ((target + tile - 1) / tile)
    }
}
