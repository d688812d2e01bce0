import BoardEmulator
import Foundation
import TiltCore
import TiltExitStatus
import Yams

/// A Wokwi automation scenario (YAML: name, version 1, author, steps) as
/// `RunStep`s for `SketchRun`. Every step and key is checked before the run;
/// an unknown one is refused with its line. Paths (take-screenshot's save-to
/// and compare-with) are relative to the scenario's folder. tiltsim's own
/// motions are a step of their own: `- tiltsim: {motion: tilt-right}` (our
/// extension; Wokwi has no such key).
struct WokwiScenario {
    var name: String
    var steps: [RunStep] = []
    /// Files take-screenshot writes, to check before the run.
    var savePaths: [String] = []
    /// Lines about what the scenario holds that tiltsim leaves unused (keys wokwi-cli ignores too).
    var notices: [String] = []

    /// The step commands, as wokwi-cli registers them, plus our extension.
    static let commands = ["delay", "wait-serial", "write-serial", "set-control", "expect-pin", "take-screenshot", "tiltsim"]
    /// Commands wokwi-cli knows that tiltsim does not model (touch screens, custom chips).
    static let unmodelled = ["touch", "touch-press", "touch-release", "touch-move", "expect-chip-output"]

    static func load(_ path: String, setup: WokwiSetup) throws(CommandFailure) -> WokwiScenario {
        let data = try InputFile.read(path, what: "scenario")
        guard let text = String(data: data, encoding: .utf8) else { throw .file("\(path): not UTF-8 text; a scenario is YAML") }
        let (node, tree) = try InputFile.yaml(text, file: path)
        let folder = (path as NSString).deletingLastPathComponent
        var reader = Reader(file: path, folder: folder.isEmpty ? "." : folder, setup: setup)
        return try reader.scenario(node, tree)
    }

    private struct Reader {
        let file: String
        let folder: String
        let setup: WokwiSetup
        var sensor: WokwiSensorState
        /// Each photoresistor module's attrs as the steps so far set them.
        var lightSensors: [String: WokwiLightSensor]
        /// The pushbuttons pressed as the steps so far left them.
        var pressed: Set<String> = []

        init(file: String, folder: String, setup: WokwiSetup) {
            self.file = file
            self.folder = folder
            self.setup = setup
            sensor = setup.sensorState
            lightSensors = setup.lightSensors.mapValues(\.sensor)
        }

        mutating func scenario(_ node: Node?, _ tree: Any?) throws(CommandFailure) -> WokwiScenario {
            guard let root = node?.mapping else { throw fail(node, "the top level must be a mapping with name, version: 1 and steps") }
            guard let name = root["name"].flatMap(Self.text) else { throw fail(node, "the scenario needs a name (text): name: my test") }
            guard root["version"]?.int == 1 else { throw fail(root["version"] ?? node, "unsupported scenario version; use version: 1") }
            guard let steps = root["steps"]?.sequence else { throw fail(root["steps"] ?? node, "steps must be a list") }
            let trees = ((tree as? [String: Any])?["steps"] as? [Any]) ?? []
            var result = WokwiScenario(name: name)
            // wokwi-cli reads name, version and steps and ignores any other key (a description, say).
            for (key, _) in root where !["name", "version", "author", "steps"].contains(key.string ?? "") {
                result.notices.append("\(file): \(quoted(key.string ?? "?")) is not a scenario key (name, version, author, steps): ignored, as wokwi-cli does")
            }
            for (index, step) in steps.enumerated() {
                try self.step(step, tree: index < trees.count ? trees[index] : nil, into: &result)
            }
            return result
        }

        private mutating func step(_ node: Node, tree: Any?, into result: inout WokwiScenario) throws(CommandFailure) {
            guard let map = node.mapping else { throw fail(node, "a step is a mapping with one command: \(WokwiScenario.commands.joined(separator: ", "))") }
            for (key, value) in map {
                let name = key.string ?? ""
                if name == "name" || WokwiScenario.commands.contains(name) { continue }
                if WokwiScenario.unmodelled.contains(name) { throw fail(key, "\(name) is not modelled by tiltsim (no touch screen or custom chip here)") }
                _ = value
                throw fail(key, "unknown step key \(quoted(name)); use one of \(WokwiScenario.commands.joined(separator: ", ")) (and name)")
            }
            let commands = map.compactMap { pair in pair.key.string }.filter { WokwiScenario.commands.contains($0) }
            guard commands.count == 1, let command = commands.first, let value = map[Node(command)] else {
                throw fail(node, "give exactly one command a step (found \(commands.isEmpty ? "none" : commands.joined(separator: ", ")))")
            }
            if let name = map["name"]?.string { result.steps.append(.announce(name)) }  // "Executing step: NAME", as wokwi-cli says
            switch command {
            case "delay":
                guard let text = value.scalar?.string, value.int == nil || text.hasSuffix("s") else {
                    throw fail(value, "the delay must include units (e.g. 500ms)")
                }
                guard let nanos = Self.nanos(text) else { throw fail(value, "invalid time \(quoted(text)); write a number and ns, us, ms or s (e.g. 500ms)") }
                result.steps.append(.wait(micros: nanos / 1000))
            case "wait-serial":
                guard let text = Self.text(value) else { throw fail(value, "wait-serial takes text (quote a number: '42')") }
                result.steps.append(.waitBytes(Array(text.utf8)))
            case "write-serial":
                if let list = value.sequence {
                    let bytes = list.compactMap { $0.int }.filter { (0...255).contains($0) }.map { UInt8($0) }
                    guard !list.isEmpty, bytes.count == list.count else { throw fail(value, "write-serial takes text or a list of byte values 0…255") }
                    result.steps.append(.sendSerial(bytes))
                } else if let text = Self.text(value) {
                    result.steps.append(.sendSerial(Array(text.utf8)))
                } else {
                    throw fail(value, "write-serial takes text or a list of byte values")
                }
            case "set-control":
                result.steps += try setControl(value)
            case "expect-pin":
                result.steps.append(try expectPin(value))
            case "take-screenshot":
                try screenshot(value, into: &result)
            default:
                let at = "line \((value.mark?.line ?? 0)): "
                result.steps.append(try ScenarioFile.motionStep(tree.flatMap { ($0 as? [String: Any])?["tiltsim"] } as Any, file: file, at: at))
            }
        }

        private mutating func setControl(_ value: Node) throws(CommandFailure) -> [RunStep] {
            let map = try params(value, "set-control", allowed: ["part-id", "name", "control", "value"])
            let (id, type) = try part(map, value, "set-control")
            guard let control = map["name"]?.string ?? map["control"]?.string else { throw fail(value, "set-control: missing required parameter `control`") }
            guard let number = map["value"]?.float ?? map["value"]?.int.map(Double.init) else { throw fail(value, "set-control: value must be a number") }
            switch type {
            case "wokwi-mpu6050":
                if let problem = sensor.set(control, number) { throw fail(value, "set-control \(id): \(problem.message)") }
                guard id == setup.sensorID else { return [] }  // not on the bus: nothing reads it
                return [.setSensor(ConstantMotionSource(sensor.sample), label: "\(id) \(sensor.summary)")]
            case "wokwi-pushbutton", "wokwi-pushbutton-6mm":
                guard control == "pressed" else { throw fail(value, "set-control \(id): a pushbutton's control is pressed (0 or 1)") }
                guard number == 0 || number == 1 else { throw fail(value, "set-control \(id): pressed \(NumberText.plain(number)) is neither 0 nor 1") }
                guard let button = setup.buttons[id] else { return [] }
                if number != 0 { pressed.insert(id) } else { pressed.remove(id) }
                // The pin follows every button on it: held while any is pressed (GND's wins over 5V's), let go when none is.
                let holding = pressed.compactMap { setup.buttons[$0] }.filter { $0.pin == button.pin }
                let label = "\(id) \(number != 0 ? "pressed" : "released")"
                guard !holding.isEmpty else { return [.releasePin(button.pin, label: label)] }
                return [.drivePin(button.pin, high: holding.allSatisfy(\.pressedHigh), label: label)]
            case "wokwi-potentiometer", "wokwi-slide-potentiometer":
                guard control == "position" else { throw fail(value, "set-control \(id): a potentiometer's control is position (0.0 to 1.0)") }
                guard (0...1).contains(number) else { throw fail(value, "set-control \(id): position \(NumberText.plain(number)) is outside 0 to 1") }
                guard let input = setup.analogInputs.first(where: { $0.id == id }) else { return [] }  // SIG on no analog input
                return [.setAnalog(channel: input.channel, millivolts: UInt32((number * 5000).rounded()), label: "\(id) at \(number)")]
            case "wokwi-analog-joystick":
                // Wokwi's own part test: x and y from -1 to 1 (x -1 reads 0 on HORZ, y 1 reads 1023 on VERT); pressed shorts SEL to GND.
                guard let stick = setup.joysticks[id] else { return [] }
                switch control {
                case "x", "y":
                    guard (-1...1).contains(number) else { throw fail(value, "set-control \(id): \(control) \(NumberText.plain(number)) is outside -1 to 1") }
                    guard let channel = control == "x" ? stick.horizontal : stick.vertical else { return [] }
                    return [.setAnalog(channel: channel, millivolts: UInt32(((number + 1) / 2 * 5000).rounded()), label: "\(id) \(control) at \(number)")]
                case "pressed":
                    guard number == 0 || number == 1 else { throw fail(value, "set-control \(id): pressed \(NumberText.plain(number)) is neither 0 nor 1") }
                    guard let pin = stick.select else { return [] }
                    return number != 0 ? [.drivePin(pin, high: false, label: "\(id) pressed")] : [.releasePin(pin, label: "\(id) released")]
                default:
                    throw fail(value, "set-control \(id): a joystick's controls are x, y (-1 to 1) and pressed (0 or 1)")
                }
            case "wokwi-hc-sr04":
                guard control == "distance" else { throw fail(value, "set-control \(id): an HC-SR04's control is distance (cm)") }
                guard (2...400).contains(number) else { throw fail(value, "set-control \(id): distance \(NumberText.plain(number)) is outside 2 to 400 cm") }
                guard let index = setup.rangers.firstIndex(where: { $0.id == id }) else { return [] }
                return [.setRangerDistance(ranger: index, centimetres: number, label: id)]
            case "wokwi-ds18b20":
                guard control == "temperature" else { throw fail(value, "set-control \(id): a DS18B20's control is temperature (°C)") }
                guard WokwiSetup.thermometerValue(String(number)) != nil else { throw fail(value, "set-control \(id): temperature \(NumberText.plain(number)) is outside -55 to 125 °C") }
                guard let place = setup.thermometerPlace(id) else { return [] }
                return [.setProbeTemperature(bus: place.bus, probe: place.probe, celsius: number, label: id)]
            case "wokwi-hx711":
                guard control == "load" else { throw fail(value, "set-control \(id): an HX711's control is load (kg)") }
                guard abs(number) <= 1e6 else { throw fail(value, "set-control \(id): load \(NumberText.plain(number)) is outside -1000000 to 1000000 kg") }
                guard let index = setup.loadCells.firstIndex(where: { $0.id == id }) else { return [] }
                return [.setLoadCell(cell: index, kilograms: number, label: id)]
            case "wokwi-dht22":
                guard control == "temperature" || control == "humidity" else {
                    throw fail(value, "set-control \(id): a DHT22's controls are temperature (°C) and humidity (%)")
                }
                guard WokwiSetup.humiditySensorValue(control, String(number)) != nil else {
                    throw fail(value, "set-control \(id): \(control) \(NumberText.plain(number)) is outside \(control == "temperature" ? "-40 to 80 °C" : "0 to 100 %")")
                }
                guard let index = setup.humiditySensors.firstIndex(where: { $0.id == id }) else { return [] }
                return [.setHumiditySensor(sensor: index, celsius: control == "temperature" ? number : nil,
                                           humidity: control == "humidity" ? number : nil, label: id)]
            case "wokwi-ntc-temperature-sensor":
                guard control == "temperature" else { throw fail(value, "set-control \(id): an NTC temperature sensor's control is temperature (°C)") }
                guard var ntc = setup.thermistors[id], let input = setup.analogInputs.first(where: { $0.id == id }) else { return [] }
                if let problem = ntc.set("temperature", number) { throw fail(value, "set-control \(id): \(problem.message)") }
                return [.setAnalog(channel: input.channel, millivolts: ntc.millivolts, label: "\(id) at \(NumberText.plain(number)) °C")]
            case "wokwi-photoresistor-sensor":
                guard var light = lightSensors[id], let wired = setup.lightSensors[id] else { return [] }
                guard control == "lux" else { throw fail(value, "set-control \(id): a photoresistor module's control is lux") }
                if let problem = light.set("lux", number) { throw fail(value, "set-control \(id): \(problem.message)") }
                lightSensors[id] = light
                var steps: [RunStep] = []
                if let channel = wired.channel { steps.append(.setAnalog(channel: channel, millivolts: light.millivolts, label: "\(id) at \(number) lux")) }
                if let pin = wired.digital { steps.append(.drivePin(pin, high: light.digitalHigh, label: "\(id) DO at \(number) lux")) }
                return steps
            default:
                throw fail(value, "set-control \(id): tiltsim has no controls for \(type); it takes the MPU-6050's, a pushbutton's pressed, "
                           + "a potentiometer's position, a joystick's x, y and pressed, a photoresistor's lux, an HC-SR04's distance, "
                           + "a DHT22's temperature and humidity, a DS18B20's and an NTC sensor's temperature and an HX711's load")
            }
        }

        private func expectPin(_ value: Node) throws(CommandFailure) -> RunStep {
            let map = try params(value, "expect-pin", allowed: ["part-id", "name", "pin", "value"])
            let (id, type) = try part(map, value, "expect-pin")
            guard let pinName = map["name"]?.string ?? map["pin"]?.string else { throw fail(value, "expect-pin: missing required parameter `pin`") }
            if let pins = WokwiSetup.partPins[type], !pins.contains(pinName) {
                throw fail(value, "expect-pin: \(type) \(quoted(id)) has no pin \(quoted(pinName)) (it has \(pins.joined(separator: ", ")))")
            }
            guard let expected = map["value"]?.int, expected == 0 || expected == 1 else { throw fail(value, "expect-pin: value is 0 or 1") }
            let pin: AVRPin?
            if id == setup.boardID, case .io(let io)? = setup.board.pin(pinName) { pin = io } else { pin = setup.ioPin(of: "\(id):\(pinName)") }
            if pin == nil {
                // On ground or the supply (no port pin): it reads that, as in Wokwi.
                let wired = setup.boardPins(of: "\(id):\(pinName)")
                if wired.contains(.ground) || (id == setup.boardID && setup.board.pin(pinName) == .ground) {
                    return .expectWired(high: false, expected: expected == 1, label: "\(id):\(pinName)", wire: "GND")
                }
                if wired.contains(.supply) || (id == setup.boardID && setup.board.pin(pinName) == .supply) {
                    return .expectWired(high: true, expected: expected == 1, label: "\(id):\(pinName)", wire: "5V")
                }
            }
            guard let pin else { throw fail(value, "expect-pin \(id):\(pinName) is not wired to a pin of the \(setup.board.title)") }
            return .expectPin(pin, high: expected == 1, label: "\(id):\(pinName)")
        }

        private func screenshot(_ value: Node, into result: inout WokwiScenario) throws(CommandFailure) {
            let map = try params(value, "take-screenshot", allowed: ["part-id", "save-to", "compare-with"])
            let (id, _) = try part(map, value, "take-screenshot")
            guard id == setup.displayID else { throw fail(value, "take-screenshot \(id): tiltsim takes screenshots of the SSD1306 on the bus only") }
            let saveTo = map["save-to"]?.string, compareWith = map["compare-with"]?.string
            guard saveTo != nil || compareWith != nil else { throw fail(value, "take-screenshot: `save-to` or `compare-with` is required") }
            if let saveTo {
                let path = folder + "/" + saveTo
                result.savePaths.append(path)
                result.steps.append(.saveScreen(name: path))
            }
            if let compareWith {
                let path = folder + "/" + compareWith
                // A file this scenario saves is compared as saved (wokwi-cli reads it when the step runs).
                if result.savePaths.contains(path) {
                    result.steps.append(.expectSavedScreen(name: path, matchBrightness: false))
                    return
                }
                let screen: WokwiScreenshot
                switch WokwiScreenshot.load(path) {
                case .success(let loaded): screen = loaded
                case .failure(let problem): throw fail(value, problem.message)
                }
                result.steps.append(.expectScreen(name: path, screen: screen.screen, brightness: nil))
            }
        }

        /// A scalar YAML reads as text, as wokwi-cli's checks want it (a bare
        /// 42 or true is a number or a flag there, and refused).
        static func text(_ node: Node) -> String? {
            guard node.scalar != nil, node.tag == Tag(.str) else { return nil }
            return node.string
        }

        private func part(_ map: Node.Mapping, _ node: Node, _ command: String) throws(CommandFailure) -> (String, String) {
            guard let id = map["part-id"]?.string else { throw fail(node, "\(command): `part-id` is required") }
            guard let type = setup.partTypes[id] else { throw fail(node, "\(command): no part \(quoted(id)) in the diagram") }
            return (id, type)
        }

        private func params(_ node: Node, _ command: String, allowed: [String]) throws(CommandFailure) -> Node.Mapping {
            guard let map = node.mapping else { throw fail(node, "\(command) takes a mapping: \(allowed.joined(separator: ", "))") }
            try unknownKeys(map, allowed: allowed)
            return map
        }

        private func unknownKeys(_ map: Node.Mapping, allowed: [String]) throws(CommandFailure) {
            for (key, _) in map where !allowed.contains(key.string ?? "") {
                throw fail(key, "unknown key \(quoted(key.string ?? "?")); use \(allowed.joined(separator: ", "))")
            }
        }

        /// wokwi-cli's times: a number and ns, us, ms or s; "0" alone is zero. Nanoseconds.
        static func nanos(_ text: String) -> UInt64? {
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            if let zero = Double(trimmed), zero == 0 { return 0 }
            for (unit, scale) in [("ns", 1.0), ("us", 1e3), ("ms", 1e6), ("s", 1e9)] where trimmed.hasSuffix(unit) {
                guard let value = Double(trimmed.dropLast(unit.count).trimmingCharacters(in: .whitespaces)), value >= 0, value <= 86_400e9 / scale else { return nil }
                return UInt64((value * scale).rounded())
            }
            return nil
        }

        private func fail(_ node: Node?, _ message: String) -> CommandFailure {
            .file("\(file)" + (node?.mark.map { ":\($0.line)" } ?? "") + ": " + message)
        }
    }
}
