/// How every message quotes a value it was given (options and config files
/// alike): in single quotes, control characters escaped so the message stays
/// one line, and at most `limit` characters, the rest cut with an ellipsis,
/// so a 50 MB value never makes a 50 MB "one-line" error.
public func quoted(_ text: some StringProtocol, limit: Int = 40) -> String {
    var out = "'"
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
        case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
            || scalar.value == 0x2028 || scalar.value == 0x2029:
            out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
        count += 1
    }
    return out + "'"
}
