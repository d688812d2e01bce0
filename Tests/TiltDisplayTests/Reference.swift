import TiltCore
import TiltDisplay

/// docs/display.md read literally, one pixel at a time, from the row-major
/// images (not the page layout the renderer uses): the independent oracle.
func referenceScreen(tile: Bitmap, ribbon: AlphaMask, vx: Int, vy: Int, rx: Int, rb: Int) -> [[Bool]] {
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

func pixels(_ screen: Screen) -> [[Bool]] {
    (0..<64).map { row in (0..<128).map { col in screen[col, row] } }
}
