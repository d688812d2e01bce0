/// Draws a screen in Unicode quadrant blocks: each cell shows a 2 × 2 block of
/// pixels, so the whole screen fits in 64 × 32 cells.
public enum QuadrantBlocks {
    /// Indexed by the lit quadrants: 1 top left, 2 top right, 4 bottom left, 8 bottom right.
    static let glyphs: [Unicode.Scalar] = [
        " ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█",
    ]

    /// 32 lines of 64 characters, top first; a cell with no lit pixel is a space.
    public static func lines(_ screen: Screen) -> [String] {
        (0..<(Screen.height / 2)).map { line in
            var text = String.UnicodeScalarView()
            for cell in 0..<(Screen.width / 2) {
                let x = 2 * cell, y = 2 * line
                var index = 0
                if screen[x, y] { index |= 1 }
                if screen[x + 1, y] { index |= 2 }
                if screen[x, y + 1] { index |= 4 }
                if screen[x + 1, y + 1] { index |= 8 }
                text.append(glyphs[index])
            }
            return String(text)
        }
    }
}
