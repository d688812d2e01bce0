import TiltCore

/// The content tile: a one-bit image repeated to make the content the display
/// pans over, kept in SSD1306 page layout like the firmware's PROGMEM copy.
public struct ContentTile: Hashable, Sendable {
    /// The widest tile accepted, pixels (a multiple of 8; docs/display.md).
    public static let maxWidth = 256
    /// The tallest tile accepted, pixels (a multiple of 8: whole SSD1306 pages).
    public static let maxHeight = 128

    /// The tile as an image.
    public let bitmap: Bitmap
    /// `height / 8` pages × `width` bytes (see `PageLayout`).
    public let pageBytes: [UInt8]
    /// CRC-16/CCITT-FALSE of `pageBytes`: the tile id the board reports in HELLO.
    public let id: UInt16

    /// Tile width, pixels.
    public var width: Int { bitmap.width }
    /// Tile height, pixels (a multiple of 8).
    public var height: Int { bitmap.height }
    /// 8-row pages in the tile (height / 8).
    public var pageCount: Int { bitmap.height / 8 }
    /// Display, tile and content sizes (content = tile grown to ≥ 4× the display).
    public var geometry: ContentGeometry { ContentGeometry(tileWidth: width, tileHeight: height) }

    /// Throws unless both sizes are multiples of 8 within 256 × 128 (docs/display.md).
    public init(bitmap: Bitmap) throws(ArtError) {
        guard bitmap.width % 8 == 0, bitmap.width <= Self.maxWidth, bitmap.height % 8 == 0, bitmap.height <= Self.maxHeight else {
            throw .tileSize(width: bitmap.width, height: bitmap.height)
        }
        self.bitmap = bitmap
        self.pageBytes = PageLayout.pack(width: bitmap.width, height: bitmap.height) { bitmap[$0, $1] }
        self.id = CRC16.checksum(pageBytes)
    }

    /// Content pixel (x, y): tile pixel (x mod width, y mod height).
    public func contentPixel(x: Int, y: Int) -> Bool {
        bitmap[((x % width) + width) % width, ((y % height) + height) % height]
    }
}
