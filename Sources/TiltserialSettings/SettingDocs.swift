/// The text `--help` and docs/usage.md show for each setting, made from the
/// table so the ranges and defaults cannot drift from what is checked.
extension SettingSpec {
    /// `--help` text: the meaning, the range and the default, in the option's unit.
    public var optionHelp: String {
        "\(meaning) \(rangeSummary(inOption: true)); default \(defaultText)."
    }

    /// The default as the option is written, with its unit: "30 ms", "0.05 g", "none".
    public var defaultText: String {
        let text = optionText(defaultValue)
        if case .integers(let vs) = defaultValue, vs.isEmpty { return "none" }
        if case .none = defaultValue { return text }
        switch type {
        case .integer, .number, .integers: return text + unitSuffix(ms: true)
        default: return text
        }
    }

    /// "1 to 1000 ms", "recipe or smooth", "up to 3 of 0 to 3600000 ms".
    public func rangeSummary(inOption: Bool) -> String {
        let ms = inOption && unit == .microsAsMillis
        func int(_ v: Int) -> String { ms ? Self.millis(v) : String(v) }
        switch type {
        case .choice(let words): return Self.alternatives(words)
        case .axes: return "x, y, z each once, maybe negated"
        case .bool: return "true or false"
        case .integer(let r, _): return "\(int(r.lowerBound)) to \(int(r.upperBound))\(unitSuffix(ms: ms))"
        case .number(let r): return "\(Self.number(r.lowerBound)) to \(Self.number(r.upperBound))\(unitSuffix(ms: ms))"
        case .integers(let r, let n): return "up to \(n) of \(int(r.lowerBound)) to \(int(r.upperBound))\(unitSuffix(ms: ms))"
        }
    }

    /// The option's placeholder: `MS`, `N`, `X`, `recipe|smooth`.
    public var placeholder: String {
        switch (type, unit) {
        case (.choice(let words), _): return words.joined(separator: "|")
        case (.axes, _): return "x,-y,z"
        case (.bool, _): return "true|false"
        case (.integers, .microsAsMillis): return "A,B,C"
        case (_, .microsAsMillis): return "MS"
        case (_, .named(let name)):
            return ["g": "G", "degrees": "DEG", "points": "PT", "px": "PX", "rows": "ROWS"][name] ?? "N"
        case (.number, _): return "X"
        default: return "N"
        }
    }

    /// Short forms that set the same key (declared beside the options).
    static let shortForms = ["dtr": "`--no-dtr`", "reconnect": "`--no-reconnect`"]

    /// docs/usage.md's settings table (UsageDocTests checks the page holds it verbatim).
    public static var markdownTable: String {
        var lines = [
            "| option | config key: JSON type | range | default | meaning |",
            "|---|---|---|---|---|",
        ]
        for spec in all {
            let option = "`--\(spec.flag) \(spec.placeholder)`".replacingBars() + (shortForms[spec.key].map { ", " + $0 } ?? "")
            var range = spec.rangeSummary(inOption: true)
            if spec.unit == .microsAsMillis { range += " (key: \(spec.rangeSummary(inOption: false)))" }
            lines.append("| \(option) | `\(spec.key)`: \(spec.jsonType) | \(range) | \(spec.defaultText) | \(spec.meaning) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// `|` escaped for a Markdown table cell.
    fileprivate func replacingBars() -> String {
        var out = ""
        for c in self { out += c == "|" ? "\\|" : String(c) }
        return out
    }

}
