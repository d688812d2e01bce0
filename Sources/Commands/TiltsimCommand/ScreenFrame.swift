import TiltDisplay

/// `--screen`'s picture of the glass for a terminal of a given size: the
/// largest rendering that fits above the status line (half blocks at 128
/// columns, quadrants at 64 × 32, braille at 64 × 16; none below that), the
/// status line cut to the width, and the rest of the screen cleared, so a
/// resize leaves no old lines behind. Half blocks whatever the size wrapped
/// every row on an 80-column terminal (an outside tester's).
enum ScreenFrame {
    /// The rendering that fits `columns` × `rows` with a status line below, if any does.
    static func density(columns: Int, rows: Int) -> CellDensity? {
        [CellDensity.halfBlocks, .quadrants, .braille].first { $0.columns <= columns && $0.rows + 1 <= rows }
    }

    /// The escape sequences and text of one redraw, from the top left.
    /// `grey`: lit pixels' 24-bit grey on a colour terminal, nil for none.
    static func text(_ screen: Screen, status: String, columns: Int, rows: Int, grey: UInt8?) -> String {
        var text = "\u{1B}[H"
        if let density = density(columns: columns, rows: rows) {
            let (on, off) = grey.map { ("\u{1B}[38;2;\($0);\($0);\($0)m", "\u{1B}[0m") } ?? ("", "")
            for line in density.lines(screen) { text += on + line + off + "\u{1B}[K\n" }
        }
        return text + cut(status, to: columns) + "\u{1B}[J"
    }

    /// `line` in at most `columns` characters, "…" marking a cut.
    static func cut(_ line: String, to columns: Int) -> String {
        guard line.count > columns else { return line }
        return columns < 1 ? "" : String(line.prefix(columns - 1)) + "…"
    }
}
