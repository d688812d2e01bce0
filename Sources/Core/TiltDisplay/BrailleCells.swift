/// Draws a screen in Unicode braille patterns (U+2800 + dot bits): each cell
/// shows a 2 × 4 block of pixels, so the whole screen fits in 64 × 16 cells.
public enum BrailleCells {
    /// The dot bit of the pixel at (column, row) inside a cell: dots 1-2-3 and 7
    /// run down the left column, 4-5-6 and 8 down the right one.
    static let dotBits: [[UInt32]] = [
        [0x01, 0x08],
        [0x02, 0x10],
        [0x04, 0x20],
        [0x40, 0x80],
    ]

    /// 16 lines of 64 characters, top first; a cell with no lit pixel is a space.
    public static func lines(_ screen: Screen) -> [String] {
        (0..<(Screen.height / 4)).map { line in
            var text = String.UnicodeScalarView()
            for cell in 0..<(Screen.width / 2) {
                var bits: UInt32 = 0
                for dy in 0..<4 {
                    for dx in 0..<2 where screen[2 * cell + dx, 4 * line + dy] {
                        bits |= dotBits[dy][dx]
                    }
                }
                text.append(bits == 0 ? " " : Unicode.Scalar(0x2800 + bits)!)
            }
            return String(text)
        }
    }
}
