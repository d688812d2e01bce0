/// A config file's new text with some keys set: what `tiltserial calibrate`
/// writes. The existing file must be valid (a file this tool would refuse to
/// read is never rewritten: its owner fixes it first); its other keys keep
/// their values as written and their order; the keys set replace theirs in
/// place or come last. One key per line, two spaces in.
public enum ConfigMerge {
    /// - Parameters:
    ///   - existing: the file's bytes, or nil when there is none.
    ///   - path: names the file in messages.
    ///   - values: (key, value in the key's unit), keys from `SettingSpec.all`.
    public static func merged(_ existing: [UInt8]?, path: String, setting values: [(key: String, value: SettingValue)]) throws(SettingsError) -> [UInt8] {
        var entries: [(key: String, json: String)] = []
        if let existing {
            _ = try SettingsResolver.read(config: existing, path: path)  // every check a run makes
            do {
                entries = try ConfigJSON.parse(existing).map { ($0.key, json($0.value)) }
            } catch {
                throw SettingsError("\(path):\(error.line):\(error.column): \(error.message)")
            }
        }
        for (key, value) in values {
            guard let spec = SettingSpec.spec(key: key), spec.accepts(value) else {
                throw SettingsError("\(key): not a setting or out of range")  // a caller's mistake, not the user's
            }
            let text = json(value)
            if let i = entries.firstIndex(where: { $0.key == key }) { entries[i].json = text } else { entries.append((key, text)) }
        }
        let body = entries.map { "  \(string($0.key)): \($0.json)" }.joined(separator: ",\n")
        let text = entries.isEmpty ? "{}\n" : "{\n" + body + "\n}\n"
        let bytes = Array(text.utf8)
        _ = try SettingsResolver.read(config: bytes, path: path)  // what is written reads back
        return bytes
    }

    /// A value as the file had it (numbers exactly as written).
    static func json(_ value: ConfigJSON.Value) -> String {
        switch value {
        case .string(let s): string(s)
        case .number(let text, _): text
        case .bool(let b): String(b)
        case .null: "null"
        case .array(let items): "[" + items.map(json).joined(separator: ", ") + "]"
        }
    }

    /// A setting's value as JSON, in the key's unit.
    static func json(_ value: SettingValue) -> String {
        switch value {
        case .bool(let b): String(b)
        case .integer(let i): String(i)
        case .number(let d): SettingSpec.number(d)
        case .text(let t): string(t)
        case .integers(let vs): "[" + vs.map(String.init).joined(separator: ", ") + "]"
        case .none: "null"
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func string(_ text: String) -> String { JSONString.quoted(text) }
}
