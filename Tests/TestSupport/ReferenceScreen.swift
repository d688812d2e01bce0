import TiltCore
import TiltDisplay

/// docs/display.md read literally, one pixel at a time, from the row-major
/// images (not the page layout the renderer uses): the independent oracle.
/// `screen[row][column]`, 64 rows of 128; `vx`, `vy` the viewport, `rx`, `rb`
/// the ribbon's left column and bottom row (content pixels).
public func referenceScreen(tile: Bitmap, ribbon: AlphaMask, vx: Int, vy: Int, rx: Int, rb: Int) -> [[Bool]] {
    (0..<64).map { row in
        (0..<128).map { col in
            let cx = vx + col, cy = vy + row
            var lit = tile[cx % tile.width, cy % tile.height]
            let ax = cx - rx, ay = cy - (rb - ribbon.height)
            if ax >= 0, ax < ribbon.width, ay >= 0, ay < ribbon.height {
                let a = ribbon[ax, ay]
                if a > 170 { lit = true } else if a >= 86 { lit = false }
            }
            return lit
        }
    }
}

/// A screen's pixels as `referenceScreen` lists them: `[row][column]`.
public func pixels(_ screen: Screen) -> [[Bool]] {
    (0..<64).map { row in (0..<128).map { col in screen[col, row] } }
}

/// The screen showing `pixels` (`[row][column]`), packed as docs/display.md
/// says the SSD1306 takes it: byte `page × 128 + column`, bit `row % 8`.
public func screen(showing pixels: [[Bool]]) -> Screen {
    var bytes = [UInt8](repeating: 0, count: 1024)
    for (row, line) in pixels.enumerated() {
        for (col, lit) in line.enumerated() where lit { bytes[(row >> 3) * 128 + col] |= 1 << UInt8(row & 7) }
    }
    return Screen(bytes: bytes)!
}
