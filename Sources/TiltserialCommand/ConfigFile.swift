import Foundation

/// `--config FILE`: a JSON object whose keys are `SettingSpec` keys (the
/// PhysicsSettings Codable names plus baud, axes, dtr, helloTimeoutMicros,
/// reconnect). Unknown keys and bad values stop with one line naming the key.
enum ConfigFile {
    enum Value: Decodable {
        case bool(Bool), int(Int), double(Double), string(String), array([Value]), null

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let v = try? c.decode(Bool.self) { self = .bool(v) }
            else if let v = try? c.decode(Int.self) { self = .int(v) }
            else if let v = try? c.decode(Double.self) { self = .double(v) }
            else if let v = try? c.decode(String.self) { self = .string(v) }
            else if let v = try? c.decode([Value].self) { self = .array(v) }
            else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "objects are not settings") }
        }

        /// The text a setting parser reads (arrays comma-joined); nil for null and nested arrays.
        var text: String? {
            switch self {
            case .bool(let v): String(v)
            case .int(let v): String(v)
            case .double(let v): v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
            case .string(let v): v
            case .array(let items):
                items.allSatisfy({ if case .array = $0 { false } else { $0.text != nil } })
                    ? items.compactMap(\.text).joined(separator: ",") : nil
            case .null: nil
            }
        }
    }

    static func apply(path: String, to settings: inout HostSettings) throws(Failure) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(.badSettings, "\(path): cannot read the config file; check the path")
        }
        let object: [String: Value]
        do {
            object = try JSONDecoder().decode([String: Value].self, from: data)
        } catch {
            throw Failure(.badSettings, "\(path): not a JSON object of settings (e.g. {\"tickMicros\": 30000}); see docs/usage.md")
        }
        for key in object.keys.sorted() {
            guard let spec = SettingSpec.spec(key: key) else {
                let known = SettingSpec.all.map(\.key).joined(separator: ", ")
                throw Failure(.badSettings, "\(path): unknown key '\(key)'; known keys: \(known)")
            }
            if key == "ribbonCenterX", case .null = object[key]! {
                settings.physics.ribbonCenterX = nil
                continue
            }
            guard let text = object[key]!.text else {
                throw Failure(.badSettings, "\(path): key '\(key)' has a value of the wrong kind")
            }
            try settings.set(spec, text, source: "\(path): key '\(key)'")
        }
    }
}
