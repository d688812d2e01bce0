import TiltCore

/// A setting's value in its config key's unit (µs for the `...Micros` keys),
/// once its type has been checked.
public enum SettingValue: Sendable, Equatable {
    /// A JSON true/false (`reconnect`).
    case bool(Bool)
    /// A whole number (`baud`, µs keys, px, rows).
    case integer(Int)
    /// A finite number (gains, g, degrees).
    case number(Double)
    /// A word or text (`physics`, `axes`).
    case text(String)
    /// A list of whole numbers (a JSON array).
    case integers([Int])
    /// JSON null: "the default" (only `ribbonCenterX` takes it).
    case none
}

/// What kind of value a setting takes, and its range in the key's unit.
public enum SettingType: Sendable {
    /// One of these words (a JSON string).
    case choice([String])
    /// A sensor mounting like "x,-y,z" (a JSON string).
    case axes
    /// true or false.
    case bool
    /// A whole number; `nullable`: JSON null means the default.
    case integer(ClosedRange<Int>, nullable: Bool = false)
    /// A finite number.
    case number(ClosedRange<Double>)
    /// Whole numbers, each in the range, at most `maxCount` (a JSON array).
    case integers(ClosedRange<Int>, maxCount: Int)
}

/// The unit a setting is counted in.
public enum SettingUnit: Sendable, Equatable {
    /// No unit: a plain number (gains, scales, counts).
    case none
    /// Named after the number: "g", "points", "px", "rows", "degrees", "baud".
    case named(String)
    /// µs in the config key, ms in the option (`--tick-ms 30` is `"tickMicros": 30000`).
    case microsAsMillis
}

/// Which option group a setting's option is declared in.
public enum SettingGroup: String, Sendable, CaseIterable {
    /// How samples become offsets: run, replay, demo.
    case physics
    /// How the serial link is opened and kept: run, replay, demo, calibrate.
    case link
}

/// Another option that sets the same key to a fixed value (`--no-dtr`).
public struct SettingAlias: Sendable {
    /// The option, without its dashes.
    public let flag: String
    /// The text it stands for, as the main option would take it.
    public let text: String
    /// The option's help line for `--help`.
    public let help: String
}

/// One configurable value, described once: its config-file key, its option,
/// its type, unit and range, how it reads and writes `HostSettings` (and so
/// its default, `HostSettings()`'s value), and what it means. The options
/// (Sources/Commands/TiltserialCommand/SettingsOptions.swift is generated from the
/// table), their help, the config file, the range checks and docs/usage.md's
/// settings table all come from `SettingSpec.all`.
public struct SettingSpec: Sendable {
    /// The config-file key (the `PhysicsSettings` or `HostSettings` property name).
    public let key: String
    /// The option, without its dashes.
    public let flag: String
    /// What kind of value it takes, and its range in the key's unit.
    public let type: SettingType
    /// The unit of the key's value (and the option's, which differs for `microsAsMillis`).
    public let unit: SettingUnit
    /// What it means (a sentence without the default or range: they are added).
    public let meaning: String
    /// Which option group declares its option (physics or link).
    public let group: SettingGroup
    /// Short forms that set a fixed value (`--no-dtr`).
    public let aliases: [SettingAlias]
    let read: @Sendable (HostSettings) -> SettingValue
    let write: @Sendable (inout HostSettings, SettingValue) -> Void

    init(key: String, flag: String, type: SettingType, unit: SettingUnit, meaning: String, group: SettingGroup = .physics,
         aliases: [SettingAlias] = [], read: @escaping @Sendable (HostSettings) -> SettingValue,
         write: @escaping @Sendable (inout HostSettings, SettingValue) -> Void) {
        self.key = key
        self.flag = flag
        self.type = type
        self.unit = unit
        self.meaning = meaning
        self.group = group
        self.aliases = aliases
        self.read = read
        self.write = write
    }

    /// Its value in `settings`.
    public func value(in settings: HostSettings) -> SettingValue { read(settings) }

    /// Its value in `HostSettings()`.
    public var defaultValue: SettingValue { read(HostSettings()) }

    /// The setting whose config key is `key` (case-sensitive); nil if none.
    public static func spec(key: String) -> SettingSpec? { all.first { $0.key == key } }
    /// The setting whose option is `--flag` (without its dashes; aliases not included); nil if none.
    public static func spec(flag: String) -> SettingSpec? { all.first { $0.flag == flag } }

    /// Whether `value` (already of the right type) lies in the setting's range.
    public func accepts(_ value: SettingValue) -> Bool {
        switch (type, value) {
        case (.choice(let words), .text(let word)): words.contains(word)
        case (.axes, .text(let text)): (try? AxisMapping(parsing: text)) != nil
        case (.bool, .bool): true
        case (.integer(let range, _), .integer(let v)): range.contains(v)
        case (.integer(_, let nullable), .none): nullable
        case (.number(let range), .number(let v)): range.contains(v)
        case (.integers(let range, let maxCount), .integers(let vs)): vs.count <= maxCount && vs.allSatisfy(range.contains)
        default: false
        }
    }

    /// What a valid value looks like, in the option's unit (`inOption`) or the key's.
    public func requirement(inOption: Bool) -> String {
        let ms = inOption && unit == .microsAsMillis
        switch type {
        case .choice(let words): return Self.alternatives(words)
        case .axes: return "three axes like x,y,z or -y,x,z"
        case .bool: return "true or false"
        case .integer(let range, let nullable):
            let what = ms ? "a number" : "a whole number"
            let null = nullable ? (inOption ? ", or none" : ", or null for the default") : ""
            return "\(what) between \(rangeText(range, ms: ms))" + null
        case .number(let range):
            return "a number between \(Self.number(range.lowerBound)) and \(Self.number(range.upperBound))\(unitSuffix(ms: ms))"
        case .integers(let range, let maxCount):
            return inOption
                ? "at most \(maxCount) numbers between \(rangeText(range, ms: ms)), separated by commas"
                : "an array of at most \(maxCount) whole numbers between \(rangeText(range, ms: ms))"
        }
    }

    /// The JSON type the config key takes, for messages and the docs.
    public var jsonType: String {
        switch type {
        case .choice(let words): "a string: " + Self.alternatives(words)
        case .axes: "a string like \"x,-y,z\""
        case .bool: "true or false"
        case .integer(_, let nullable): nullable ? "an integer or null" : "an integer"
        case .number: "a number"
        case .integers: "an array of integers"
        }
    }

    /// The word every option takes for its default (after a config file set another value).
    public static let defaultWord = "default"

    /// Reads an option's text (in the option's unit) as a value in the key's unit;
    /// nil when it is not of the setting's type. The range is checked by `accepts`.
    /// `default` is the default value; a nullable integer also takes `none` (null).
    public func parseOption(_ text: String) -> SettingValue? {
        if text == Self.defaultWord { return defaultValue }
        switch type {
        case .integer(_, nullable: true) where text == "none": return SettingValue.none
        case .choice, .axes: return .text(text)
        case .bool: return Bool(text).map(SettingValue.bool)
        case .integer: return wholeNumber(text).map(SettingValue.integer)
        case .number:
            guard let v = Double(text), v.isFinite else { return nil }
            return .number(v)
        case .integers:
            if text.allSatisfy({ $0 == " " }) { return .integers([]) }
            var values: [Int] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let v = wholeNumber(String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())) else { return nil }
                values.append(v)
            }
            return .integers(values)
        }
    }

    /// An integer in the key's unit from an option's text (ms → µs, rounded).
    /// Values far outside any range come back as Int.max/min so `accepts` refuses them.
    func wholeNumber(_ text: String) -> Int? {
        guard unit == .microsAsMillis else { return Int(text) }
        guard let ms = Double(text), ms.isFinite else { return nil }
        let micros = (ms * 1000).rounded()
        return abs(micros) < 1e18 ? Int(micros) : (micros < 0 ? .min : .max)
    }

    /// A value as the option would be written (ms for µs keys): for the docs and help.
    public func optionText(_ value: SettingValue) -> String {
        let ms = unit == .microsAsMillis
        switch value {
        case .bool(let v): return String(v)
        case .integer(let v): return ms ? Self.millis(v) : String(v)
        case .number(let v): return Self.number(v)
        case .text(let v): return v
        case .integers(let vs): return vs.map { ms ? Self.millis($0) : String($0) }.joined(separator: ",")
        case .none: return "none"
        }
    }

    // MARK: Text

    func unitSuffix(ms: Bool) -> String {
        switch unit {
        case .none: ""
        case .named(let name): " " + name
        case .microsAsMillis: ms ? " ms" : " µs"
        }
    }

    func rangeText(_ range: ClosedRange<Int>, ms: Bool) -> String {
        let show = { (v: Int) in ms ? Self.millis(v) : String(v) }
        return "\(show(range.lowerBound)) and \(show(range.upperBound))\(unitSuffix(ms: ms))"
    }

    static func alternatives(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// µs as ms: 30000 → "30", 1 → "0.001".
    static func millis(_ micros: Int) -> String {
        micros % 1000 == 0 ? String(micros / 1000) : number(Double(micros) / 1000)
    }

    /// 0.25, 90, 10000: no ".0", no exponent for the values settings take.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

extension SettingSpec {
    /// A setting of `PhysicsSettings` or `HostSettings` stored at `path`.
    static func int(_ key: String, _ flag: String, _ path: WritableKeyPath<HostSettings, Int> & Sendable,
                    _ range: ClosedRange<Int>, _ unit: SettingUnit, _ meaning: String, group: SettingGroup = .physics) -> SettingSpec {
        SettingSpec(key: key, flag: flag, type: .integer(range), unit: unit, meaning: meaning, group: group,
                    read: { .integer($0[keyPath: path]) },
                    write: { s, v in if case .integer(let i) = v { s[keyPath: path] = i } })
    }

    static func double(_ key: String, _ flag: String, _ path: WritableKeyPath<HostSettings, Double> & Sendable,
                       _ range: ClosedRange<Double>, _ unit: SettingUnit, _ meaning: String) -> SettingSpec {
        SettingSpec(key: key, flag: flag, type: .number(range), unit: unit, meaning: meaning,
                    read: { .number($0[keyPath: path]) },
                    write: { s, v in if case .number(let d) = v { s[keyPath: path] = d } })
    }
}
