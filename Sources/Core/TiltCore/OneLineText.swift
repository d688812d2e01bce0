/// Text from outside (a value a person typed, a port's name) as one line of a
/// message: control characters, line and paragraph separators and Unicode's
/// bidirectional overrides escaped (`\n`, `\u{1b}`), so it can neither split
/// the line nor drive the terminal, and at most `limit` characters, the rest
/// cut with an ellipsis. The one place both tools escape such text.
public enum OneLineText {
    /// `text` escaped for one line of a message, cut after `limit` characters with "…".
    public static func escaped(_ text: some StringProtocol, limit: Int) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(scalar.value): out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    private static func needsEscape(_ value: UInt32) -> Bool {
        value < 0x20 || value == 0x7F || reordersOrBreaksLines(value)
    }

    /// C1 controls, line and paragraph separators and the bidirectional
    /// marks, embeddings, overrides and isolates: characters that can split a
    /// line or reorder what a terminal shows after them.
    public static func reordersOrBreaksLines(_ value: UInt32) -> Bool {
        (0x80..<0xA0).contains(value) || value == 0x200E || value == 0x200F || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
