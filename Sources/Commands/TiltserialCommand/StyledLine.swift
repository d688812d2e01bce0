/// How a piece of the live view is coloured (when colour is on).
enum TextStyle: Hashable, Sendable {
    case plain
    /// Losses and errors happening now.
    case bad
    /// Losses and errors seen earlier in the run; warnings.
    case warning
    /// A fire.
    case fire
    /// Labels and hints.
    case dim

    /// The SGR sequence that starts the style.
    var sgr: String {
        switch self {
        case .plain: ""
        case .bad: "\u{1B}[1;31m"
        case .warning: "\u{1B}[33m"
        case .fire: "\u{1B}[1;32m"
        case .dim: "\u{1B}[2m"
        }
    }
}

/// One line of the live view: styled pieces and the columns they take on a
/// terminal. Control characters in the text are shown as `?`, so nothing a
/// message quotes (a port name, a hook's output) can move the cursor.
struct StyledLine: Hashable, Sendable {
    private(set) var pieces: [Piece] = []
    /// Terminal columns taken.
    private(set) var width = 0

    struct Piece: Hashable, Sendable {
        var text: String
        var style: TextStyle
    }

    init() {}

    init(_ text: String, _ style: TextStyle = .plain) {
        append(text, style)
    }

    mutating func append(_ text: String, _ style: TextStyle = .plain) {
        var clean = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let safe: Unicode.Scalar = TerminalWidth.isControl(scalar) ? "?" : scalar
            clean.append(safe)
            width += TerminalWidth.columns(safe)
        }
        guard !clean.isEmpty else { return }
        if let last = pieces.last, last.style == style {
            pieces[pieces.count - 1].text += String(clean)
        } else {
            pieces.append(Piece(text: String(clean), style: style))
        }
    }

    mutating func append(_ other: StyledLine) {
        for piece in other.pieces { append(piece.text, piece.style) }
    }

    /// At most `columns` wide: what goes past is cut (a wide character that
    /// would straddle the edge is left out).
    func clipped(to columns: Int) -> StyledLine {
        guard width > columns else { return self }
        var line = StyledLine()
        var used = 0
        for piece in pieces {
            var kept = String.UnicodeScalarView()
            for scalar in piece.text.unicodeScalars {
                let w = TerminalWidth.columns(scalar)
                if used + w > columns { break }
                kept.append(scalar)
                used += w
            }
            line.append(String(kept), piece.style)
            if used >= columns || kept.count < piece.text.unicodeScalars.count { break }
        }
        return line
    }

    /// `clipped`, with "…" in its last column when anything was cut: a figure
    /// cut at the edge ("ay 141" of 14198 at 20 columns) never passes for a whole one.
    func cut(to columns: Int) -> StyledLine {
        guard width > columns, columns >= 2 else { return clipped(to: columns) }
        var line = clipped(to: columns - 1)
        line.append("…", line.pieces.last?.style ?? .plain)
        return line
    }

    /// Exactly `columns` wide: clipped, then padded with spaces.
    func fitted(to columns: Int) -> StyledLine {
        var line = clipped(to: columns)
        if line.width < columns { line.append(String(repeating: " ", count: columns - line.width)) }
        return line
    }

    /// The text with SGR colour sequences when `colour`, plain otherwise.
    func rendered(colour: Bool) -> String {
        var out = ""
        for piece in pieces {
            if colour && piece.style != .plain {
                out += piece.style.sgr + piece.text + "\u{1B}[0m"
            } else {
                out += piece.text
            }
        }
        return out
    }

    /// The text alone.
    var plainText: String { rendered(colour: false) }
}

/// How many columns a character takes on a terminal (wcwidth's rules, by
/// ranges: enough for what the view prints and what a message may quote).
enum TerminalWidth {
    static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (s.value >= 0x7F && s.value < 0xA0)
    }

    static func columns(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        if isControl(s) { return 0 }
        // Fast path: Latin, and the box, block and braille characters the view draws with.
        if v < 0x0300 || (0x2500...0x28FF).contains(v) { return 1 }
        // Combining marks and zero-width characters.
        if (0x0300...0x036F).contains(v) || (0x200B...0x200F).contains(v) || (0xFE00...0xFE0F).contains(v)
            || (0x1AB0...0x1AFF).contains(v) || (0x20D0...0x20FF).contains(v) {
            return 0
        }
        // East Asian wide and fullwidth, emoji.
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v) {
            return 2
        }
        return 1
    }

    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }
}
