import BoardEmulator
import Foundation
import TiltCore
import TiltDisplay
import TiltExitStatus
import Yams

/// A `tiltsim run --scenario FILE`: YAML (or JSON, by the .json extension)
/// with optional settings and a list of steps, each a mapping with one action:
///
///     timeout: 20                 # simulated seconds (the command line's --timeout wins)
///     motion: rest                # the motion at power-on: motion NAME, script FILE or csv FILE
///     noise: 0                    # sensor noise scale (default: --noise, 1)
///     fail-serial: ["panic", "ERROR \\d+"]
///     board: {display-address: 0x3D, sensor-address: 0x69, sensor-int: D3}
///     steps:
///       - wait-serial: "MPU6050 (ok|found)"   # a regular expression
///         timeout: 5                           # optional, simulated seconds for this step
///       - motion: tilt-right                   # or script: FILE, csv: FILE, pose: [back, right]
///       - send-serial: "r\n"
///       - wait: 2.5
///       - screenshot: tilted.png
///       - expect-screen: expected.png
///
/// Files named in it are relative to the scenario's folder.
struct ScenarioFile {
    var timeoutSeconds: Double?
    var motion: Motion.Path?
    var noise: Double?
    var failPatterns: [String] = []
    /// The parts' wiring, if the file sets it (`board:`).
    var wiring: BoardWiring?
    var steps: [RunStep] = []
    /// Screenshot files, to check they can be written before the run.
    var screenshotPaths: [String] = []

    static let settingKeys = ["timeout", "motion", "script", "csv", "noise", "fail-serial", "board", "steps"]
    static let boardKeys = ["display", "display-address", "display-max-clock", "sensor-address", "sensor", "sensor-int"]
    static let actionKeys = ["wait-serial", "motion", "script", "csv", "pose", "send-serial", "wait", "screenshot", "expect-screen",
                             "sensor-wires"]

    /// Reads and checks the whole file; `noise` is the command line's scale, used unless the file sets one.
    static func load(_ path: String, noise defaultNoise: Double, board: ArduinoBoard = .uno) throws(CommandFailure) -> ScenarioFile {
        let data = try InputFile.read(path, what: "scenario file")
        guard let text = String(data: data, encoding: .utf8) else { throw .file("\(path): not UTF-8 text; a scenario is YAML or JSON") }
        let tree: Any?
        if path.lowercased().hasSuffix(".json") {
            try InputFile.checkJSONSize(data, file: path)
            do { tree = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
                throw .file("\(path):\(JSONSyntaxPlace.describe(error, in: data)); not valid JSON")
            }
            if let problem = JSONDuplicateKey.problem(in: data) { throw .file("\(path):\(problem)") }
        } else {
            tree = try InputFile.yaml(text, file: path).tree
        }
        let folder = (path as NSString).deletingLastPathComponent
        var reader = Reader(file: path, folder: folder.isEmpty ? "." : folder, board: board)
        return try reader.scenario(tree, defaultNoise: defaultNoise)
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// Walks the parsed tree with messages that name the file, the step and the fix.
    private struct Reader {
        let file: String
        let folder: String
        /// Whose header names `sensor-int`'s pin.
        let board: ArduinoBoard

        mutating func scenario(_ tree: Any?, defaultNoise: Double) throws(CommandFailure) -> ScenarioFile {
            guard let root = tree as? [String: Any] else {
                throw fail("the top level must be a mapping with 'steps:' (and optionally \(ScenarioFile.settingKeys.dropLast().joined(separator: ", ")))")
            }
            try unknownKeys(root, allowed: ScenarioFile.settingKeys, what: "setting")
            var result = ScenarioFile()
            result.timeoutSeconds = try root["timeout"].map { v throws(CommandFailure) in try seconds(v, "timeout") }
            if let noise = root["noise"] {
                let value = try number(noise, "noise")
                guard value >= 0 && value <= 100 else { throw fail("noise \(value): use a scale from 0 to 100") }
                result.noise = value
            }
            let noise = result.noise ?? defaultNoise
            let motions = ScenarioFile.motionKeys.filter { root[$0] != nil }
            if motions.count > 1 { throw fail("give one of motion, script, csv at the top level") }
            if let key = motions.first { result.motion = try motionPath(key, root[key]!, "") }
            result.failPatterns = try patterns(root["fail-serial"], "fail-serial")
            result.wiring = try root["board"].map { v throws(CommandFailure) in try wiring(v) }
            guard let steps = root["steps"] else { throw fail("no 'steps:' list; add one (see docs/emulator.md)") }
            guard let list = steps as? [Any] else { throw fail("'steps' must be a list of mappings, one action each") }
            for (index, item) in list.enumerated() {
                try step(item, number: index + 1, noise: noise, into: &result)
            }
            return result
        }

        private func step(_ item: Any, number: Int, noise: Double, into result: inout ScenarioFile) throws(CommandFailure) {
            let at = "step \(number): "
            guard let map = item as? [String: Any] else {
                throw fail(at + "a step is a mapping with one action: \(ScenarioFile.actionKeys.joined(separator: ", "))")
            }
            try unknownKeys(map, allowed: ScenarioFile.actionKeys + ["timeout"], what: "key", at: at)
            let actions = ScenarioFile.actionKeys.filter { map[$0] != nil }
            guard actions.count == 1, let action = actions.first else {
                throw fail(at + "give exactly one action (found \(actions.isEmpty ? "none" : actions.joined(separator: ", ")))")
            }
            if map["timeout"] != nil && action != "wait-serial" { throw fail(at + "'timeout' belongs to a wait-serial step") }
            let value = map[action]!
            switch action {
            case "wait-serial":
                let pattern = try string(value, at + "wait-serial")
                if let problem = SketchRun.patternProblem(pattern) { throw fail(at + problem) }
                let timeout = try map["timeout"].map { v throws(CommandFailure) in try seconds(v, at + "timeout") }
                result.steps.append(.waitSerial(pattern: pattern, timeoutMicros: timeout.map { UInt64($0 * 1e6) }))
            case "send-serial":
                result.steps.append(.sendSerial(try serialBytes(value, at + "send-serial")))
            case "wait":
                result.steps.append(.wait(micros: UInt64(try seconds(value, at + "wait") * 1e6)))
            case "sensor-wires":
                result.steps.append(.sensorWires(connected: try onOrOff(value, at + "sensor-wires")))
            case "screenshot":
                let path = resolve(try string(value, at + "screenshot"))
                result.screenshotPaths.append(path)
                result.steps.append(.saveScreen(name: path))
            case "expect-screen":
                let path = resolve(try string(value, at + "expect-screen"))
                if result.screenshotPaths.contains(path) {  // saved by this scenario: compared as saved
                    result.steps.append(.expectSavedScreen(name: path, matchBrightness: true))
                } else {
                    let reference = try ReferenceScreen.load(path)
                    result.steps.append(.expectScreen(name: path, screen: reference.screen, brightness: reference.brightness))
                }
            default:
                let path = try motionPath(action, value, at)
                result.steps.append(.setMotion(Motion(path, noise: noise > 0
                    ? SensorNoise(sampleRate: 100, seed: 0x5EED &+ UInt64(number), scale: noise) : .none)))
            }
        }

        func motionPath(_ key: String, _ value: Any, _ at: String) throws(CommandFailure) -> Motion.Path {
            switch key {
            case "motion":
                let name = try string(value, at + "motion")
                guard let script = Scenarios.named(name) else {
                    throw fail(at + "motion \(quoted(name)): unknown; use one of \(Scenarios.names.joined(separator: ", "))")
                }
                return .script(script)
            case "pose":
                let angles: [Double]
                if let list = value as? [Any] {
                    angles = try list.map { v throws(CommandFailure) in try number(v, at + "pose") }
                } else if let map = value as? [String: Any] {
                    try unknownKeys(map, allowed: ["back", "right"], what: "pose key", at: at)
                    angles = [try number(map["back"] ?? 30, at + "pose back"), try number(map["right"] ?? 0, at + "pose right")]
                } else {
                    throw fail(at + "pose is [back°, right°] or {back: …, right: …}")
                }
                guard angles.count == 2, angles.allSatisfy({ abs($0) <= 180 }) else {
                    throw fail(at + "pose is two angles in degrees from -180 to 180: [back, right]")
                }
                return .script(MotionScript(keys: [.init(0, Pose(back: angles[0], right: angles[1]))]))
            case "script":
                let path = resolve(try string(value, at + "script"))
                do { return .script(try MotionScript(parsing: try MotionOptions.read(path, what: "motion script"))) } catch let error as CommandFailure {
                    throw error
                } catch {
                    throw .file("\(path): \(error)")
                }
            default:  // csv
                let path = resolve(try string(value, at + "csv"))
                return try MotionOptions.recorded(path)
            }
        }

        /// `board:` a mapping of display, display-address, display-max-clock, sensor-address, sensor, sensor-int (numbers or text).
        private func wiring(_ value: Any) throws(CommandFailure) -> BoardWiring {
            guard let map = value as? [String: Any] else {
                throw fail("board is a mapping of \(ScenarioFile.boardKeys.joined(separator: ", ")), e.g. {display-address: 0x3D}")
            }
            try unknownKeys(map, allowed: ScenarioFile.boardKeys, what: "board key")
            func text(_ key: String) throws(CommandFailure) -> String? {
                guard let value = map[key] else { return nil }
                if !Self.isBoolean(value), let int = value as? Int { return String(int) }
                if let string = value as? String { return string }
                throw fail("board: \(key) must be an address or a pin name, e.g. 0x3D or D3")
            }
            func parse<T>(_ key: String, _ parser: (String) -> Result<T, WiringProblem>) throws(CommandFailure) -> T? {
                guard let value = try text(key) else { return nil }
                switch parser(value) {
                case .success(let parsed): return parsed
                case .failure(let problem): throw fail("board: \(problem.from(key).message)")
                }
            }
            var wiring = BoardWiring.standard
            if let v = try parse("display", BoardWiring.display) { wiring.display = v }
            if let v = try parse("display-address", BoardWiring.displayAddress) { wiring.displayAddress = v }
            if let v = try parse("display-max-clock", BoardWiring.displayMaxClock) { wiring.displayMaxClockHz = v }
            if let v = try parse("sensor-address", BoardWiring.sensorAddress) { wiring.sensorAddress = v }
            if let v = try parse("sensor", BoardWiring.sensorPart) { wiring.sensorWhoAmI = v }
            if let v = try parse("sensor-int", BoardWiring.interruptPin(on: board)) { wiring.sensorInterrupt = v }
            return wiring
        }

        private func patterns(_ value: Any?, _ what: String) throws(CommandFailure) -> [String] {
            guard let value else { return [] }
            let list: [String]
            if let one = value as? String { list = [one] } else if let many = value as? [Any] {
                list = try many.map { v throws(CommandFailure) in try string(v, what) }
            } else {
                throw fail("\(what) is a regular expression or a list of them")
            }
            for pattern in list { if let problem = SketchRun.patternProblem(pattern) { throw fail("\(what): \(problem)") } }
            return list
        }

        private func unknownKeys(_ map: [String: Any], allowed: [String], what: String, at: String = "") throws(CommandFailure) {
            if let unknown = map.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw fail(at + "unknown \(what) \(quoted(unknown)); use one of \(allowed.joined(separator: ", "))")
            }
        }

        private func string(_ value: Any, _ what: String) throws(CommandFailure) -> String {
            guard let text = value as? String else { throw fail("\(what) must be text (quote it)") }
            return text
        }

        /// Text (its UTF-8 bytes) or a list of byte values, for a binary protocol.
        private func serialBytes(_ value: Any, _ what: String) throws(CommandFailure) -> [UInt8] {
            if let text = value as? String { return Array(text.utf8) }
            let problem = "\(what) takes text or a list of byte values 0…255 ([0xFF, 16])"
            guard let list = value as? [Any], !list.isEmpty else { throw fail(problem) }
            var bytes: [UInt8] = []
            for item in list {
                guard !Self.isBoolean(item), let byte = item as? Int, (0...255).contains(byte) else { throw fail(problem) }
                bytes.append(UInt8(byte))
            }
            return bytes
        }

        private func number(_ value: Any, _ what: String) throws(CommandFailure) -> Double {
            if Self.isBoolean(value) { throw fail("\(what) must be a number") }
            if let int = value as? Int { return Double(int) }
            if let double = value as? Double, double.isFinite { return double }
            throw fail("\(what) must be a number")
        }

        /// on/off, true/false (YAML reads a bare `off` as false; JSON has either).
        private func onOrOff(_ value: Any, _ what: String) throws(CommandFailure) -> Bool {
            if Self.isBoolean(value), let flag = value as? Bool { return flag }
            switch (value as? String)?.lowercased() {
            case "on", "true": return true
            case "off", "false": return false
            default: throw fail("\(what) must be off or on")
            }
        }

        /// true or false, not a number: on Linux a JSON 0 or 1 also casts to
        /// Bool (and `is Bool`), so only the number's own type tells them apart.
        static func isBoolean(_ value: Any) -> Bool {
            (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false
        }

        private func seconds(_ value: Any, _ what: String) throws(CommandFailure) -> Double {
            // "500ms" (Wokwi's delay style) is text: the unit here is the second.
            if let text = value as? String { throw fail("\(what) \(text.prefix(40)): give simulated seconds as a number, e.g. 0.5 for 500 ms") }
            let seconds = try number(value, what)
            guard seconds >= 0 && seconds <= 86_400 else { throw fail("\(what) \(seconds): use simulated seconds from 0 to 86400") }
            return seconds
        }

        private func resolve(_ path: String) -> String {
            path.hasPrefix("/") ? path : folder + "/" + path
        }

        private func fail(_ message: String) -> CommandFailure { .file("\(file): \(message)") }
    }

    static let motionKeys = ["motion", "script", "csv"]

    /// tiltsim's own motion as a step of another scenario format (a Wokwi
    /// scenario's `tiltsim:` key): a mapping with one of motion NAME, script
    /// FILE, csv FILE or pose [back, right]; files relative to `file`'s folder.
    static func motionStep(_ value: Any, file: String, at: String) throws(CommandFailure) -> RunStep {
        let keys = motionKeys + ["pose"]
        guard let map = value as? [String: Any], map.count == 1, let key = map.keys.first, keys.contains(key) else {
            throw .file("\(file): \(at)tiltsim: takes one of \(keys.joined(separator: ", ")), e.g. tiltsim: {motion: tilt-right}")
        }
        let folder = (file as NSString).deletingLastPathComponent
        let reader = Reader(file: file, folder: folder.isEmpty ? "." : folder, board: .uno)  // a motion names no pin
        return .setMotion(Motion(try reader.motionPath(key, map[key]!, at), noise: .none))
    }
}
