import SerialIO

/// A terminal's size in character cells.
public struct TerminalSize: Hashable, Sendable {
    /// Width in character cells (TIOCGWINSZ's ws_col).
    public var columns: Int
    /// Height in character cells (TIOCGWINSZ's ws_row).
    public var rows: Int

    /// A size of `columns` × `rows` cells.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// What the live view needs to know about the terminal it draws on (stderr).
public struct TerminalScreen: Sendable {
    /// The size now (asked at every redraw); nil when unknown.
    public var size: @Sendable () -> TerminalSize?
    /// stdout is the same terminal as stderr: `--json` lines would land in the view.
    public var outIsSameTerminal: Bool
    /// Colour allowed: a terminal, NO_COLOR unset or empty, TERM not `dumb`.
    public var colour: Bool
    /// TERM is `dumb` or unset: no cursor movement, so no view in auto mode.
    public var dumb: Bool
    /// stdin when it is a terminal: the view reads its keys there (nil: no keys).
    public var keyInput: Int32?

    /// A screen from its parts; by default the same terminal is not stdout, no colour, not dumb, no keys.
    public init(size: @escaping @Sendable () -> TerminalSize?, outIsSameTerminal: Bool = false, colour: Bool = false,
                dumb: Bool = false, keyInput: Int32? = nil) {
        self.size = size
        self.outIsSameTerminal = outIsSameTerminal
        self.colour = colour
        self.dumb = dumb
        self.keyInput = keyInput
    }

    /// A terminal of a fixed size with no keys (tests, captured consoles).
    public static func fixed(columns: Int, rows: Int, colour: Bool = false) -> TerminalScreen {
        let size = TerminalSize(columns: columns, rows: rows)
        return TerminalScreen(size: { size }, colour: colour)
    }

    /// The process's own: stderr's size, stdout compared with stderr, stdin for keys.
    static func standard() -> TerminalScreen {
        let errIsTerminal = TerminalInfo.isTerminal(2)
        let term = environment("TERM")
        return TerminalScreen(
            size: { windowSize(2) },
            outIsSameTerminal: errIsTerminal && sameDevice(1, 2),
            colour: TerminalInfo.colourAllowed(noColor: environment("NO_COLOR"), term: term, isTerminal: errIsTerminal),
            dumb: term == nil || term == "dumb" || term == "",
            keyInput: TerminalInfo.isTerminal(0) ? 0 : nil)
    }

    static func environment(_ name: String) -> String? { ProcessEnvironment.value(name) }

    /// TIOCGWINSZ on `fd`; nil when it is not a terminal or reports 0 × 0.
    static func windowSize(_ fd: Int32) -> TerminalSize? {
        TerminalInfo.windowSize(fd).map { TerminalSize(columns: $0.columns, rows: $0.rows) }
    }

    /// Both descriptors are terminals and the same device.
    static func sameDevice(_ a: Int32, _ b: Int32) -> Bool { TerminalInfo.sameDevice(a, b) }
}
