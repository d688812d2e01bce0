import TiltDisplay

/// Where the live view puts what, for a terminal of `columns` × `rows`: which
/// board rendering (or none), which sensor panel and where. A pure decision
/// (tested at every size from 20 × 5 to 250 × 80): the chosen layout never
/// needs more columns or rows than the terminal has.
///
/// Top to bottom: the status line (rate, lost, errors, fires, keys); an info
/// line (port, format, firmware) when a row is spare; the board in its frame
/// with the panel beside it, or the panel below it; the ribbon line; the
/// message line.
struct ViewLayout: Hashable, Sendable {
    enum Panel: Hashable, Sendable {
        case none
        /// Values one to a line in a narrow column beside the board, and a
        /// sparkline row under it; or three lines below the board.
        case compact
        /// Sections (sensor, trends, link, pose) stacked beside the board or in columns below it.
        case full
    }

    enum Placement: Hashable, Sendable { case beside, below }

    var columns: Int
    var rows: Int
    /// nil: no room for a board (status, panel and messages only).
    var board: CellDensity?
    var panel: Panel
    var placement: Placement
    /// Room for the info line under the status line.
    var infoLine: Bool
    /// Room for the link's counts under a compact panel below the board (the
    /// compact panel beside it always has them).
    var linkRow = false

    // MARK: Sizes

    static let statusRows = 1
    static let footerRows = 2  // the ribbon line and the message line
    static let gap = 1
    static let compactWidth = 13
    /// The width `--view compact` draws at, however wide the terminal.
    static let compactViewColumns = 80
    static let fullWidth = 33
    /// Under a board with the compact panel beside it: the sparklines and the link's counts.
    static let compactBesideExtraRows = 2
    static let compactBelowRows = 3
    static let fullBelowRows = 7  // the tallest section (sensor: a header and six lines); 8 left a blank row where the info line fitted
    static let fullBelowMinColumns = 2 * fullWidth + 2

    /// The board with its frame.
    static func boardSize(_ density: CellDensity?) -> (columns: Int, rows: Int) {
        guard let density else { return (0, 0) }
        return (density.columns + 2, density.rows + 2)
    }

    /// Columns and rows this layout needs (without the optional info line).
    var needs: (columns: Int, rows: Int) {
        let board = Self.boardSize(self.board)
        let fixedRows = Self.statusRows + Self.footerRows
        switch (panel, placement) {
        case (.none, _):
            return (board.columns, fixedRows + board.rows)
        case (.compact, .beside):
            return (board.columns + Self.gap + Self.compactWidth, fixedRows + board.rows + Self.compactBesideExtraRows)
        case (.full, .beside):
            return (board.columns + Self.gap + Self.fullWidth, fixedRows + board.rows)
        case (.compact, .below):
            return (max(board.columns, Self.compactWidth), fixedRows + board.rows + Self.compactBelowRows)
        case (.full, .below):
            return (max(board.columns, Self.fullBelowMinColumns), fixedRows + board.rows + Self.fullBelowRows)
        }
    }

    func fits(columns: Int, rows: Int) -> Bool {
        let n = needs
        return n.columns <= columns && n.rows <= rows
    }

    /// The layouts a mode tries, best first.
    static func candidates(_ mode: ViewMode) -> [(CellDensity?, Panel, Placement)] {
        let boards: [CellDensity] = [.halfBlocks, .quadrants, .braille]
        let panels: [(Panel, Placement)] = [(.full, .beside), (.full, .below), (.compact, .beside), (.compact, .below)]
        var list: [(CellDensity?, Panel, Placement)] = []
        switch mode {
        case .auto, .none:
            // The largest board, then the fullest panel.
            for board in boards { for (panel, place) in panels { list.append((board, panel, place)) } }
        case .full:
            // The fullest panel, then the largest board.
            for (panel, place) in panels { for board in boards { list.append((board, panel, place)) } }
        case .compact:
            list = [(.braille, .compact, .beside), (.braille, .compact, .below)]
        }
        // A terminal too small for any of those: less and less.
        list += [(.braille, .none, .beside), (nil, .full, .below), (nil, .compact, .below), (nil, .none, .below)]
        return list
    }

    /// The first of the mode's candidates that fits; on a terminal too small for
    /// all of them, the status and message lines alone (clipped).
    static func choose(columns: Int, rows: Int, mode: ViewMode) -> ViewLayout {
        // `--view compact` is the 80×24 view at any size: drawn 80 wide, its
        // figures beside their labels, not at a wide terminal's right edge.
        let columns = mode == .compact ? min(columns, Self.compactViewColumns) : columns
        for (board, panel, placement) in candidates(mode) {
            var layout = ViewLayout(columns: columns, rows: rows, board: board, panel: panel, placement: placement, infoLine: false)
            if layout.fits(columns: columns, rows: rows) {
                layout.infoLine = layout.needs.rows < rows
                layout.linkRow = panel == .compact && placement == .below && layout.needs.rows + 1 < rows
                return layout
            }
        }
        return ViewLayout(columns: columns, rows: rows, board: nil, panel: .none, placement: .below, infoLine: false)
    }
}
