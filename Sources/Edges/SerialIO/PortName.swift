/// A port name as messages show it: as typed when it is a plain path, else
/// with control characters escaped (a name holding ESC or a newline must not
/// drive the terminal or split a one-line error) and cut after 100
/// characters (a 5000-character path gives no 5000-character line).
public enum PortName {
    /// Characters shown before the cut.
    public static let limit = 100

    /// `port` for a message.
    public static func shown(_ port: String) -> String {
        var out = ""
        var count = 0
        for scalar in port.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029 || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value):
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }
}
