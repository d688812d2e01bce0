import SerialIO
import TiltCore
import TiltPhysics

/// Everything a run can be configured with: the physics plus the host's own keys.
/// Filled from defaults, then `--config FILE`, then command-line options (which win).
public struct HostSettings: Sendable, Equatable {
    public var physics = PhysicsSettings()
    /// Sensor mounting (`--axes`, key "axes").
    public var axes = AxisMapping.identity
    public var baud = SerialPort.defaultBaud
    public var dtr = SerialOptions.DTR.assert
    /// How long to wait for the first valid frame or data line.
    public var helloTimeoutMicros = 4_000_000
    /// Wait for an unplugged device to come back (false: exit with code deviceGone).
    public var reconnect = true

    public init() {}
}

/// One configurable value, described once: its config-file key, its option
/// name, its help, and how text sets it. The option group, the config file and
/// docs/usage.md all come from `SettingSpec.all`.
struct SettingSpec: Sendable {
    enum Unit: Sendable {
        case plain
        /// The key is in µs; its option takes milliseconds.
        case millisOnCommandLine
    }

    let key: String
    let flag: String
    let unit: Unit
    let help: String
    /// Sets the value from text; returns nil, or what the value must be.
    let apply: @Sendable (inout HostSettings, String) -> String?

    static func double(_ key: String, _ flag: String, _ path: WritableKeyPath<PhysicsSettings, Double> & Sendable, _ help: String) -> SettingSpec {
        SettingSpec(key: key, flag: flag, unit: .plain, help: help) { s, text in
            guard let v = Double(text), v.isFinite else { return "a number" }
            s.physics[keyPath: path] = v
            return nil
        }
    }

    static func int(_ key: String, _ flag: String, _ path: WritableKeyPath<PhysicsSettings, Int> & Sendable, _ help: String) -> SettingSpec {
        int(key, flag, .plain, path, help)
    }

    static func micros(_ key: String, _ flag: String, _ path: WritableKeyPath<PhysicsSettings, Int> & Sendable, _ help: String) -> SettingSpec {
        int(key, flag, .millisOnCommandLine, path, help)
    }

    static func int(_ key: String, _ flag: String, _ unit: Unit, _ path: WritableKeyPath<PhysicsSettings, Int> & Sendable, _ help: String) -> SettingSpec {
        SettingSpec(key: key, flag: flag, unit: unit, help: help) { s, text in
            guard let v = Int(text) else { return "a whole number" + (unit == .millisOnCommandLine ? " of µs" : "") }
            s.physics[keyPath: path] = v
            return nil
        }
    }

    static let all: [SettingSpec] = [
        SettingSpec(key: "mode", flag: "physics", unit: .plain, help: "Integrator: recipe (the book's sample code, exactly) or smooth.") { s, text in
            guard let mode = IntegratorMode(rawValue: text) else { return "recipe or smooth" }
            s.physics.mode = mode
            return nil
        },
        .micros("tickMicros", "tick-ms", \.tickMicros, "Physics tick, ms of board time (default 30)."),
        .double("baseGain", "base-gain", \.baseGain, "Smooth: offset per 30 ms per g when a movement starts (default 0.005)."),
        .double("gainRamp", "gain-ramp", \.gainRamp, "Smooth: gain added per 30 ms while the tilt keeps its direction (default 0.0005)."),
        .double("gainCap", "gain-cap", \.gainCap, "Smooth: largest gain (default 0.015)."),
        .double("deadZone", "dead-zone", \.deadZone, "Smooth: tilt around the rest pose that counts as rest, g (default 0.05)."),
        .double("yScale", "y-scale", \.yScale, "Smooth: y input scale relative to x (default 2)."),
        .micros("filterMicros", "filter-ms", \.filterMicros, "Smooth: low-pass time constant, ms (default 50)."),
        .double("restAngleDegrees", "rest-angle", \.restAngleDegrees, "Smooth: rest pose, degrees from face-up toward face-forward (default 60)."),
        SettingSpec(key: "ribbonCenterX", flag: "ribbon-center-x", unit: .plain, help: "Content column of the ribbon's centre (default: the content's centre).") { s, text in
            guard let v = Int(text) else { return "a whole number of content pixels" }
            s.physics.ribbonCenterX = v
            return nil
        },
        .int("ribbonRestVisible", "ribbon-rest-visible", \.ribbonRestVisible, "Ribbon art rows showing at rest (default 15)."),
        .double("ribbonPixelsPerPoint", "ribbon-pixels-per-point", \.ribbonPixelsPerPoint, "Display pixels per ribbon point (default 0.2)."),
        .double("stretchPointsPerPixel", "stretch-points-per-pixel", \.stretchPointsPerPixel, "Ribbon points per pixel scrolled past the top while engaged (default 2)."),
        .double("stretchLimit", "stretch-limit", \.stretchLimit, "Largest stretch, points (default 100)."),
        .double("fireThreshold", "fire-threshold", \.fireThreshold, "A stretch above this fires, points (default 75)."),
        .micros("rollbackMicros", "rollback-ms", \.rollbackMicros, "Ribbon roll-back time, ms (default 300)."),
        .int("grabAlphaThreshold", "grab-alpha", \.grabAlphaThreshold, "Lowest alpha (exclusive) a grab must land on (default 85)."),
        .double("wiggleDepth", "wiggle-depth", \.wiggleDepth, "Wiggle depth, points (default 10)."),
        .micros("wiggleHalfMicros", "wiggle-half-ms", \.wiggleHalfMicros, "Each half of a wiggle, ms (default 250)."),
        SettingSpec(key: "wiggleStartsMicros", flag: "wiggle-starts-ms", unit: .millisOnCommandLine,
                    help: "When wiggles start after the first sample, comma-separated ms (default 4000,8000,12000; empty: none).") { s, text in
            let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
            var values: [Int] = []
            for p in parts {
                guard let v = Int(p) else { return "whole numbers of µs separated by commas" }
                values.append(v)
            }
            s.physics.wiggleStartsMicros = values
            return nil
        },
        .double("swayPixelsPerG", "sway-pixels-per-g", \.swayPixelsPerG, "Ribbon sway, content pixels per g of sideways tilt (default 0: off)."),
        .int("swayLimit", "sway-limit", \.swayLimit, "Largest sway either way, pixels (default 2)."),
        SettingSpec(key: "axes", flag: "axes", unit: .plain, help: "Sensor mounting as board axes from sensor axes, e.g. x,-y,z (default x,y,z).") { s, text in
            do { s.axes = try AxisMapping(parsing: text) } catch { return "three axes like x,y,z or -y,x,z" }
            return nil
        },
        SettingSpec(key: "baud", flag: "baud", unit: .plain, help: "Baud rate (default 115200; i2cdevlib's MPU6050_raw uses 38400).") { s, text in
            guard let v = Int(text), v > 0 else { return "a positive whole number" }
            s.baud = v
            return nil
        },
        SettingSpec(key: "dtr", flag: "dtr", unit: .plain, help: "DTR on open: assert (resets most Arduinos) or leave.") { s, text in
            switch text {
            case "assert": s.dtr = .assert
            case "leave": s.dtr = .leave
            default: return "assert or leave"
            }
            return nil
        },
        SettingSpec(key: "helloTimeoutMicros", flag: "hello-timeout", unit: .millisOnCommandLine,
                    help: "Give up when no valid frame arrives within this many ms (default 4000).") { s, text in
            guard let v = Int(text), v > 0 else { return "a positive whole number of µs" }
            s.helloTimeoutMicros = v
            return nil
        },
        SettingSpec(key: "reconnect", flag: "reconnect", unit: .plain, help: "Wait for an unplugged board to return: true or false.") { s, text in
            guard let v = Bool(text) else { return "true or false" }
            s.reconnect = v
            return nil
        },
    ]

    static func spec(key: String) -> SettingSpec? { all.first { $0.key == key } }
    static func spec(flag: String) -> SettingSpec? { all.first { $0.flag == flag } }

    /// Converts an option's text to the key's unit (ms → µs where the key is in µs).
    func commandLineValue(_ text: String) -> String? {
        guard unit == .millisOnCommandLine else { return text }
        var out: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let p = part.trimmingCharacters(in: " ")
            if p.isEmpty && text.isEmpty { return "" }
            guard let ms = Double(p), ms.isFinite, abs(ms) < 1e12 else { return nil }
            out.append(String(Int((ms * 1000).rounded())))
        }
        return out.joined(separator: ",")
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

extension HostSettings {
    /// Applies `text` to the setting `key`, or fails naming where it came from.
    mutating func set(_ spec: SettingSpec, _ text: String, source: String) throws(Failure) {
        if let requirement = spec.apply(&self, text) {
            throw Failure(.badSettings, "\(source): '\(text)' is not valid; it must be \(requirement)")
        }
    }

    /// Checks the physics ranges; the message names the key and its option.
    func validated() throws(Failure) -> HostSettings {
        do { try physics.validate() } catch {
            let flag = SettingSpec.spec(key: error.name).map { " (--\($0.flag))" } ?? ""
            throw Failure(.badSettings, "\(error.description)\(flag)")
        }
        return self
    }
}
