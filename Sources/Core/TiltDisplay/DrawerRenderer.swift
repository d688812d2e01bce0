extension ScreenRenderer {
    /// Drawer geometry shared with the firmware (docs/display.md, "The drawer").
    public enum DrawerGeometry {
        /// Slot to slot in the drawer's row, px.
        public static let slotPitch = 20
        /// An icon's left edge within its slot.
        public static let iconInset = 2
        /// Drawer rows from the strip's bottom edge: icons end 4 rows up, the
        /// current item's marker is 3 rows up, the border is the last row.
        public static let iconBottomGap = 4
        /// The current item's marker row, counted up from the strip's bottom edge.
        public static let markerRow = 3
        /// A pin's icon is centred on its content position: its top-left is 8 px up and left.
        public static let pinAnchor = ItemArt.size / 2
    }

    /// Renders the whole scene: the map, the pins, the ribbon, the drawer and the
    /// dragged item, in that order (later ones on top), per docs/display.md.
    /// With `DrawerScene.empty` this is `render(viewportX:viewportY:ribbonX:ribbonBottom:into:)`.
    /// Allocation-free; the same algorithm as the firmware's `tilt_render_span`.
    public func render(
        viewportX: UInt16, viewportY: UInt16, ribbonX: UInt16, ribbonBottom: UInt16, scene: DrawerScene, into screen: inout Screen
    ) {
        let vx = Int(viewportX), vy = Int(viewportY), rx = Int(ribbonX), rb = Int(ribbonBottom)
        let tileWidth = tile.width, tileHeight = tile.height, tilePages = tile.pageCount
        let ribbonWidth = ribbon.width, ribbonHeight = ribbon.height, ribbonPages = ribbon.pageCount
        let itemCount = items.count
        let height = Int(scene.height), shown = min(Int(scene.shown), height)
        let scroll = Int(scene.scroll), current = Int(scene.current)
        let dragItem = Int(scene.dragItem) < itemCount ? Int(scene.dragItem) : -1
        let dragLeft = Int(scene.dragLeft), dragTop = Int(scene.dragTop)
        typealias G = DrawerGeometry
        tile.pageBytes.withUnsafeBufferPointer { tileBytes in
        ribbon.drawnPages.withUnsafeBufferPointer { drawn in
        ribbon.litPages.withUnsafeBufferPointer { lit in
        items.litPages.withUnsafeBufferPointer { itemLit in
        items.drawnPages.withUnsafeBufferPointer { itemDrawn in
        // The pins on the current page: (item, icon row at the page's top bit, display column of the icon's left).
        withUnsafeTemporaryAllocation(of: (Int, Int, Int).self, capacity: DrawerScene.pinSlots) { onPage in
        screen.bytes.withUnsafeMutableBufferPointer { out in
            for page in 0..<Screen.pageCount {
                let top = vy + page * 8                       // content row of the page's top bit
                let tileRow = top % tileHeight
                let tilePage = tileRow >> 3, shift = tileRow & 7
                let nextTilePage = tilePage + 1 == tilePages ? 0 : tilePage + 1
                let ribbonRow = top - rb + ribbonHeight        // art row at the page's top bit
                let ribbonOnPage = ribbonRow < ribbonHeight && ribbonRow > -8

                var pins = 0
                for slot in 0..<scene.drawnPinCount {
                    let pin = scene[pin: slot]
                    guard Int(pin.item) < itemCount else { continue }
                    let row = top - (Int(pin.y) - G.pinAnchor)
                    let left = Int(pin.x) - G.pinAnchor - vx
                    guard row > -8, row < ItemArt.size, left < Screen.width, left + ItemArt.size > 0 else { continue }
                    onPage[pins] = (Int(pin.item), row, left)
                    pins += 1
                }
                // The drawer's rows on this page, and where its parts fall (bit indices, icon row).
                let y0 = page * 8
                let drawerMask: UInt8 = shown <= y0 ? 0 : shown >= y0 + 8 ? 0xFF : UInt8((1 << (shown - y0)) - 1)
                let iconRow = y0 - (shown - G.iconBottomGap - ItemArt.size)
                let borderBit = shown - 1 - y0, markerBit = shown - G.markerRow - y0
                let dragRow = y0 - dragTop

                var tileX = vx % tileWidth
                for column in 0..<Screen.width {
                    var byte = tileBytes[tilePage * tileWidth + tileX]
                    if shift != 0 {
                        byte = byte >> UInt8(shift) | tileBytes[nextTilePage * tileWidth + tileX] << UInt8(8 - shift)
                    }
                    for p in 0..<pins {
                        let (item, row, left) = onPage[p]
                        let x = column - left
                        if x >= 0 && x < ItemArt.size {
                            byte = byte & ~Self.iconBits(itemDrawn, item, x, row) | Self.iconBits(itemLit, item, x, row)
                        }
                    }
                    let artX = vx + column - rx
                    if ribbonOnPage && artX >= 0 && artX < ribbonWidth {
                        let d = Self.bits(drawn, column: artX, width: ribbonWidth, pages: ribbonPages, from: ribbonRow)
                        let l = Self.bits(lit, column: artX, width: ribbonWidth, pages: ribbonPages, from: ribbonRow)
                        byte = byte & ~d | l
                    }
                    if drawerMask != 0 {
                        var d: UInt8 = 0
                        if borderBit >= 0 && borderBit < 8 { d |= 1 << UInt8(borderBit) }
                        let rowX = column + scroll
                        if rowX >= 0 {
                            let k = rowX / G.slotPitch, x = rowX % G.slotPitch - G.iconInset
                            if k < itemCount && x >= 0 && x < ItemArt.size {
                                d |= Self.iconBits(itemLit, k, x, iconRow)
                                if k == current && markerBit >= 0 && markerBit < 8 { d |= 1 << UInt8(markerBit) }
                            }
                        }
                        byte = byte & ~drawerMask | d & drawerMask
                    }
                    if dragItem >= 0 {
                        let x = column - dragLeft
                        if x >= 0 && x < ItemArt.size {
                            byte = byte & ~Self.iconBits(itemDrawn, dragItem, x, dragRow) | Self.iconBits(itemLit, dragItem, x, dragRow)
                        }
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
        }
        }
    }

    /// Eight bits of column `x` of icon `item` from icon row `row`: bit k is row
    /// row + k; rows outside the icon are zero.
    @inline(__always)
    static func iconBits(_ icons: UnsafeBufferPointer<UInt8>, _ item: Int, _ x: Int, _ row: Int) -> UInt8 {
        if row <= -8 || row >= ItemArt.size { return 0 }
        let base = item * ItemArt.bytesPerIcon
        if row < 0 { return icons[base + x] << UInt8(-row) }
        let page = row >> 3, shift = row & 7
        var result = icons[base + page * ItemArt.size + x] >> UInt8(shift)
        if shift != 0 && page == 0 { result |= icons[base + ItemArt.size + x] << UInt8(8 - shift) }
        return result
    }
}
