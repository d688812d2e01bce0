/// Sizes of the display, the content tile and the content built from it.
///
/// The content is the tile repeated, grown by whole tiles until it is at least
/// four times the display in both directions (the tilt scroller recipe's rule).
public struct ContentGeometry: Hashable, Sendable {
    /// The content covers at least this many displays in each direction (4).
    public static let contentToDisplayRatio = 4

    /// Display width, pixels (128 on the SSD1306 module).
    public let displayWidth: Int
    /// Display height, pixels (64 on the SSD1306 module).
    public let displayHeight: Int
    /// Content tile width, pixels.
    public let tileWidth: Int
    /// Content tile height, pixels.
    public let tileHeight: Int

    /// The geometry of a `tileWidth × tileHeight` tile on a display, 128 × 64 unless given.
    public init(displayWidth: Int = 128, displayHeight: Int = 64, tileWidth: Int, tileHeight: Int) {
        precondition(displayWidth > 0 && displayHeight > 0 && tileWidth > 0 && tileHeight > 0)
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
    }

    /// Content width, pixels: whole tiles, at least 4 displays wide.
    public var contentWidth: Int { Self.grow(tileWidth, toCover: displayWidth * Self.contentToDisplayRatio) }
    /// Content height, pixels: whole tiles, at least 4 displays high.
    public var contentHeight: Int { Self.grow(tileHeight, toCover: displayHeight * Self.contentToDisplayRatio) }

    /// The largest viewport offsets: content minus display, per axis.
    public var maxViewportX: Int { contentWidth - displayWidth }
    /// The largest viewport y, pixels.
    public var maxViewportY: Int { contentHeight - displayHeight }

    static func grow(_ tile: Int, toCover target: Int) -> Int {
        tile * ((target + tile - 1) / tile)
    }
}
