/// Draws the board's screen from the OFFSETS fields, exactly per docs/display.md:
/// the content (the tile repeated) from the viewport, with the ribbon art on top.
///
/// Pure and allocation-free: it works a page byte at a time (the same algorithm
/// as the firmware's `tilt_render_page`) and writes into a caller-owned `Screen`.
public struct ScreenRenderer: Hashable, Sendable {
    /// The map tile, repeated to fill the content.
    public let tile: ContentTile
    /// The ribbon's art, drawn over the map.
    public let ribbon: RibbonArt
    /// The drawer's item icons (none: the drawer scene draws no icons).
    public let items: ItemArt

    /// A renderer for this tile, ribbon and item art.
    public init(tile: ContentTile, ribbon: RibbonArt, items: ItemArt = .none) {
        self.tile = tile
        self.ribbon = ribbon
        self.items = items
    }

    /// Renders one screen. The inputs are the OFFSETS fields, in content pixels:
    /// viewport x/y (content pixel at the display's top-left corner), ribbon x (the
    /// art's left column) and ribbon bottom (one past the art's last row; 0 hides it).
    public func render(viewportX: UInt16, viewportY: UInt16, ribbonX: UInt16, ribbonBottom: UInt16, into screen: inout Screen) {
        let vx = Int(viewportX), vy = Int(viewportY), rx = Int(ribbonX), rb = Int(ribbonBottom)
        let tileWidth = tile.width, tileHeight = tile.height, tilePages = tile.pageCount
        let ribbonWidth = ribbon.width, ribbonHeight = ribbon.height, ribbonPages = ribbon.pageCount
        tile.pageBytes.withUnsafeBufferPointer { tileBytes in
        ribbon.drawnPages.withUnsafeBufferPointer { drawn in
        ribbon.litPages.withUnsafeBufferPointer { lit in
        screen.bytes.withUnsafeMutableBufferPointer { out in
            for page in 0..<Screen.pageCount {
                let top = vy + page * 8                       // content row of the page's top bit
                let tileRow = top % tileHeight
                let tilePage = tileRow >> 3, shift = tileRow & 7
                let nextTilePage = tilePage + 1 == tilePages ? 0 : tilePage + 1
                let ribbonRow = top - rb + ribbonHeight        // art row at the page's top bit
                let ribbonOnPage = ribbonRow < ribbonHeight && ribbonRow > -8
                var tileX = vx % tileWidth
                for column in 0..<Screen.width {
                    var byte = tileBytes[tilePage * tileWidth + tileX]
                    if shift != 0 {
                        byte = byte >> UInt8(shift) | tileBytes[nextTilePage * tileWidth + tileX] << UInt8(8 - shift)
                    }
                    let artX = vx + column - rx
                    if ribbonOnPage && artX >= 0 && artX < ribbonWidth {
                        let d = Self.bits(drawn, column: artX, width: ribbonWidth, pages: ribbonPages, from: ribbonRow)
                        let l = Self.bits(lit, column: artX, width: ribbonWidth, pages: ribbonPages, from: ribbonRow)
                        byte = byte & ~d | l
                    }
                    out[page * Screen.width + column] = byte
                    tileX += 1
                    if tileX == tileWidth { tileX = 0 }
                }
            }
        }
        }
        }
        }
    }

    /// Eight bits of one art column starting at art row `row` (which may be
    /// negative): bit k is row `row + k`; rows outside the art are zero (the
    /// page-layout padding past the last row is zero).
    @inline(__always)
    static func bits(_ pages: UnsafeBufferPointer<UInt8>, column: Int, width: Int, pages count: Int, from row: Int) -> UInt8 {
        if row < 0 { return pages[column] << UInt8(-row) }
        let page = row >> 3, shift = row & 7
        var result = pages[page * width + column] >> UInt8(shift)
        if shift != 0 && page + 1 < count { result |= pages[(page + 1) * width + column] << UInt8(8 - shift) }
        return result
    }
}
