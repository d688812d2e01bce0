/// JSON string escaping, for every JSON text the tools write: `--json` events,
/// the config file `calibrate` merges into, the pins file.
public enum JSONString {
    /// `text` with quotes, backslashes and control characters escaped (no surrounding quotes).
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` as a JSON string, quotes included.
    public static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }
}
