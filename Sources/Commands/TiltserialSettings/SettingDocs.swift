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
        case .integer(let r, let nullable):
            return "\(int(r.lowerBound)) to \(int(r.upperBound))\(unitSuffix(ms: ms))" + (nullable ? " or none" : "")
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

    /// docs/usage.md's settings table (UsageDocTests checks the page holds it verbatim).
    public static var markdownTable: String {
        var lines = [
            "| option | config key: JSON type | range | default | meaning |",
            "|---|---|---|---|---|",
        ]
        for spec in all {
            let option = (["`--\(spec.flag) \(spec.placeholder)`".replacingBars()] + spec.aliases.map { "`--\($0.flag)`" })
                .joined(separator: ", ")
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

extension SettingSpec {
    /// The lines around docs/usage.md's generated table.
    public static let tableStart = "<!-- settings table: made from SettingSpec.all by `swift run settings-codegen`; edit the table, not this -->"
    /// The line after docs/usage.md's generated table.
    public static let tableEnd = "<!-- end of the settings table -->"

    /// The table in `page` between the markers (nil: no markers).
    public static func currentTable(in page: String) -> Substring? {
        guard let start = page.firstRange(of: tableStart + "\n"),
              let end = page[start.upperBound...].firstRange(of: tableEnd) else { return nil }
        return page[start.upperBound..<end.lowerBound]
    }

    /// `page` with the table between the markers made afresh (nil: no markers).
    public static func replacingTable(in page: String) -> String? {
        guard let table = currentTable(in: page) else { return nil }
        return String(page[..<table.startIndex]) + markdownTable + String(page[table.endIndex...])
    }
}
