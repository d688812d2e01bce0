/// How many display pixels one terminal character cell shows, from the densest
/// (the whole 128 × 64 screen in 64 × 16 cells) to the largest (128 × 32).
/// The live view picks the largest that fits the terminal.
public enum CellDensity: String, CaseIterable, Hashable, Sendable {
    /// Braille patterns, 2 × 4 pixels a cell: 64 × 16 cells. Terminal cells are
    /// about twice as tall as wide, so the pixels come out square.
    case braille
    /// Quadrant blocks, 2 × 2 pixels a cell: 64 × 32 cells (pixels twice as tall as wide).
    case quadrants
    /// Half blocks, 1 × 2 pixels a cell: 128 × 32 cells (square pixels).
    case halfBlocks

    /// Pixels across and down one cell.
    public var cellPixels: (width: Int, height: Int) {
        switch self {
        case .braille: (2, 4)
        case .quadrants: (2, 2)
        case .halfBlocks: (1, 2)
        }
    }

    /// Cells across for the whole display.
    public var columns: Int { Screen.width / cellPixels.width }
    /// Cells down for the whole display.
    public var rows: Int { Screen.height / cellPixels.height }

    /// The screen as `rows` lines of `columns` characters, top first, no line
    /// terminators. A cell with no lit pixel is a space.
    public func lines(_ screen: Screen) -> [String] {
        switch self {
        case .braille: BrailleCells.lines(screen)
        case .quadrants: QuadrantBlocks.lines(screen)
        case .halfBlocks: HalfBlocks.lines(screen)
        }
    }
}
