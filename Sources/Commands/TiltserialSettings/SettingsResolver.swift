import TiltCore
import TiltPhysics

/// Builds `HostSettings` from the defaults, a config file and options, in
/// that order (later wins), refusing anything invalid with one line that
/// names where the value came from, in that place's unit.
///
/// Types are checked as each value arrives; ranges once everything has
/// arrived, so an option can override an out-of-range value in a file.
/// Pure: no I/O, no process exit (the command reads the file, checks its
/// size first, and turns a `SettingsError` into exit code 21).
public struct SettingsResolver: Sendable {
    /// Where a value came from, for messages.
    enum Source: Sendable {
        case option(flag: String)
        case config(path: String, key: String)
    }

    struct Assignment: Sendable {
        var spec: SettingSpec
        var value: SettingValue
        /// The value as written (option text, JSON token), quoted in messages.
        var written: String
        var source: Source

        var place: String {
            switch source {
            case .option(let flag): "--\(flag)"
            case .config(let path, let key): "\(path): key \(quoted(key))"
            }
        }

        var inOption: Bool { if case .option = source { true } else { false } }
    }

    /// Config files larger than this are refused unread (64 KiB: a full file
    /// with every key and comments-free JSON is under 2 KiB).
    public static let maxConfigBytes = 64 * 1024

    private var assignments: [String: Assignment] = [:]

    /// A resolver with nothing assigned: `resolve()` gives `HostSettings()`.
    public init() {}

    /// The settings a config file's bytes hold, with no options: the pure
    /// entry point of `--config` (and the fuzz target's).
    public static func read(config bytes: [UInt8], path: String) throws(SettingsError) -> HostSettings {
        var resolver = SettingsResolver()
        try resolver.addConfig(bytes, path: path)
        return try resolver.resolve()
    }

    /// Takes every key of a config file (`path` only names it in messages).
    public mutating func addConfig(_ bytes: [UInt8], path: String) throws(SettingsError) {
        guard bytes.count <= Self.maxConfigBytes else { throw Self.tooLarge(path: path, bytes: bytes.count) }
        let entries: [ConfigJSON.Entry]
        do { entries = try ConfigJSON.parse(bytes) } catch {
            throw SettingsError("\(path):\(error.line):\(error.column): \(error.message)")
        }
        for entry in entries {
            guard let spec = SettingSpec.spec(key: entry.key) else {
                let known = SettingSpec.all.map(\.key).joined(separator: ", ")
                throw SettingsError("\(path): unknown key \(quoted(entry.key)); known keys: \(known)")
            }
            guard let value = Self.settingValue(entry.value, spec) else {
                throw SettingsError("\(path): key \(quoted(entry.key)) must be \(spec.jsonType), not \(Self.describe(entry.value))")
            }
            assignments[spec.key] = Assignment(
                spec: spec, value: value, written: Self.written(entry.value), source: .config(path: path, key: entry.key))
        }
    }

    /// The message for a file over `maxConfigBytes`.
    public static func tooLarge(path: String, bytes: Int) -> SettingsError {
        SettingsError("\(path): \(bytes) bytes is too large for a config file (at most \(maxConfigBytes) bytes); see docs/usage.md")
    }

    /// Takes one option (`flag` without dashes, `text` as typed, in the option's unit).
    /// Options are final, so their range is checked at once.
    public mutating func addOption(flag: String, text: String) throws(SettingsError) {
        guard let spec = SettingSpec.spec(flag: flag) else { throw SettingsError("--\(flag) is not a setting") }
        let source = Source.option(flag: flag)
        guard let value = spec.parseOption(text) else {
            throw SettingsError("--\(flag): \(quoted(text)) is not valid; it must be \(spec.requirement(inOption: true))")
        }
        let assignment = Assignment(spec: spec, value: value, written: text, source: source)
        try Self.checkRange(assignment)
        assignments[spec.key] = assignment
    }

    /// The settings, every range and cross-check passed.
    public func resolve() throws(SettingsError) -> HostSettings {
        var settings = HostSettings()
        for spec in SettingSpec.all {
            guard let assignment = assignments[spec.key] else { continue }
            try Self.checkRange(assignment)
            spec.write(&settings, assignment.value)
        }
        let p = settings.physics
        if p.gainCap < p.baseGain {
            throw SettingsError("\(describe("gainCap")) must be at least \(describe("baseGain")); change one of them")
        }
        if p.fireThreshold > p.stretchLimit {
            throw SettingsError("\(describe("fireThreshold")) must be at most \(describe("stretchLimit")); change one of them")
        }
        // The last word is the engine's own check (the ranges above are its ranges).
        do { try p.validate() } catch { throw SettingsError("\(error.description)") }
        return settings
    }

    // MARK: Checks and text

    private static func checkRange(_ a: Assignment) throws(SettingsError) {
        guard a.spec.accepts(a.value) else {
            throw SettingsError("\(a.place): \(quoted(a.written)) is not valid; it must be \(a.spec.requirement(inOption: a.inOption))")
        }
    }

    /// "gainCap (0.001 from --gain-cap)", "baseGain (0.005, the default)".
    private func describe(_ key: String) -> String {
        guard let spec = SettingSpec.spec(key: key) else { return key }
        guard let a = assignments[key] else { return "\(key) (\(spec.optionText(spec.defaultValue)), the default)" }
        switch a.source {
        case .option(let flag): return "\(key) (\(quoted(a.written)) from --\(flag))"
        case .config(let path, _): return "\(key) (\(quoted(a.written)) from \(path))"
        }
    }

    /// A JSON value as the setting's type, or nil when it is the wrong JSON type.
    /// Integers that do not fit come back out of range (Int.min/max).
    static func settingValue(_ json: ConfigJSON.Value, _ spec: SettingSpec) -> SettingValue? {
        func integer(_ v: ConfigJSON.Value) -> Int? {
            guard case .number(let text, true) = v else { return nil }
            return Int(text) ?? (text.hasPrefix("-") ? .min : .max)
        }
        switch (spec.type, json) {
        case (.choice, .string(let s)), (.axes, .string(let s)): return .text(s)
        case (.bool, .bool(let b)): return .bool(b)
        case (.integer(_, true), .null): return SettingValue.none
        case (.integer, _): return integer(json).map(SettingValue.integer)
        case (.number, .number(let text, _)): return Double(text).map(SettingValue.number)  // 1e999 is inf: out of range
        case (.integers, .array(let items)):
            var values: [Int] = []
            for item in items {
                guard let v = integer(item) else { return nil }
                values.append(v)
            }
            return .integers(values)
        default: return nil
        }
    }

    /// What a wrong value is, for "must be an integer, not the string '30000'".
    static func describe(_ json: ConfigJSON.Value) -> String {
        switch json {
        case .string(let s): "the string \(quoted(s))"
        case .number(let text, _): "the number \(quoted(text))"
        case .bool(let b): String(b)
        case .null: "null"
        case .array(let items):
            if let odd = items.first(where: { if case .number(_, true) = $0 { false } else { true } }) {
                "an array holding \(describe(odd))"
            } else {
                "an array"
            }
        }
    }

    /// The value as written in the file (arrays compactly).
    static func written(_ json: ConfigJSON.Value) -> String {
        switch json {
        case .string(let s): s
        case .number(let text, _): text
        case .bool(let b): String(b)
        case .null: "null"
        case .array(let items): "[" + items.map(written).joined(separator: ",") + "]"
        }
    }
}
