import BoardEmulator
import TiltCore

/// The input parts beyond buttons and potentiometers that real Wokwi
/// projects wire most (an outside tester's count over 76 diagrams): the
/// analog joystick, the HC-SR04, the photoresistor module, the DHT22 and
/// the DS18B20; the HX711, the one part with automation controls in Wokwi's
/// list that was left; and the NTC temperature sensor (`WokwiThermistor`).
/// Each reads as in Wokwi at its attrs' values; a scenario's set-control moves it.
extension WokwiSetup {
    /// At rest both axes sit at VCC/2 (analogRead 512, as Wokwi's docs give it); SEL is open until pressed.
    mutating func addJoystick(_ part: WokwiDiagram.Part, at: String) {
        let horizontal = analogChannel(of: part.id + ":HORZ"), vertical = analogChannel(of: part.id + ":VERT")
        if horizontal == nil && vertical == nil { notices.append("\(at): neither HORZ nor VERT is wired to an analog input: its axes are ignored") }
        for case let channel? in [horizontal, vertical] { analogInputs.append((part.id, channel, 2500)) }
        joysticks[part.id] = (horizontal, vertical, ioPin(of: part.id + ":SEL", in: strictNets))
    }

    /// TRIG and ECHO on port pins, the obstacle at attr `distance` (cm, 400 unless set).
    mutating func addRanger(_ part: WokwiDiagram.Part, at: String) -> WokwiProblem? {
        let text = part.attrs["distance"] ?? "400"
        guard let centimetres = Self.rangerDistance(text) else { return WokwiProblem("\(at): distance \"\(text)\" is in cm, 2 to 400") }
        guard let trigger = ioPin(of: part.id + ":TRIG", in: strictNets), let echo = ioPin(of: part.id + ":ECHO", in: strictNets) else {
            notices.append("\(at): TRIG and ECHO are not both wired to pins: ignored")
            return nil
        }
        rangers.append((part.id, trigger, echo, centimetres))
        return nil
    }

    /// AO on an analog input and DO on a pin (either may be unwired), at the attrs' light.
    mutating func addLightSensor(_ part: WokwiDiagram.Part, at: String) -> WokwiProblem? {
        let sensor: WokwiLightSensor
        switch WokwiLightSensor.parse(part.attrs) {
        case .success(let parsed): sensor = parsed
        case .failure(let problem): return WokwiProblem("\(at): \(problem.message)")
        }
        let channel = analogChannel(of: part.id + ":AO"), digital = ioPin(of: part.id + ":DO", in: strictNets)
        if channel == nil && digital == nil { notices.append("\(at): neither AO nor DO is wired to a pin: ignored") }
        lightSensors[part.id] = (channel, digital, sensor)
        return nil
    }

    /// OUT on an analog input, at attrs `temperature` (°C, 24 unless set) and `beta` (3950).
    mutating func addThermistor(_ part: WokwiDiagram.Part, at: String) -> WokwiProblem? {
        let sensor: WokwiThermistor
        switch WokwiThermistor.parse(part.attrs) {
        case .success(let parsed): sensor = parsed
        case .failure(let problem): return WokwiProblem("\(at): \(problem.message)")
        }
        guard let channel = analogChannel(of: part.id + ":OUT") else {
            notices.append("\(at): OUT is not wired to an analog input: ignored")
            return nil
        }
        thermistors[part.id] = sensor
        analogInputs.append((part.id, channel, sensor.millivolts))
        return nil
    }

    /// SDA (its data line) on a pin, at attrs `temperature` (°C, 24 unless set) and `humidity` (%, 40).
    mutating func addHumiditySensor(_ part: WokwiDiagram.Part, at: String) -> WokwiProblem? {
        var values: [Double] = []
        for (name, fallback) in [("temperature", "24"), ("humidity", "40")] {
            let text = part.attrs[name] ?? fallback
            guard let value = Self.humiditySensorValue(name, text) else { return WokwiProblem("\(at): \(Self.humiditySensorRange(name, text))") }
            values.append(value)
        }
        guard let pin = ioPin(of: part.id + ":SDA", in: strictNets) else {
            notices.append("\(at): SDA (its data line) is not wired to a pin: ignored")
            return nil
        }
        humiditySensors.append((part.id, pin, values[0], values[1]))
        return nil
    }

    /// SCK and DT on pins, no load on the cell; attr `type` is 5kg, 50kg (the default) or gauge, all 420 counts a kg.
    mutating func addLoadCell(_ part: WokwiDiagram.Part, at: String) -> WokwiProblem? {
        let type = part.attrs["type"] ?? "50kg"
        guard ["5kg", "50kg", "gauge"].contains(type) else { return WokwiProblem("\(at): type \"\(type)\" is 5kg, 50kg or gauge") }
        guard let clock = ioPin(of: part.id + ":SCK", in: strictNets), let data = ioPin(of: part.id + ":DT", in: strictNets) else {
            notices.append("\(at): SCK and DT are not both wired to pins: ignored")
            return nil
        }
        loadCells.append((part.id, clock, data))
        return nil
    }

    /// DQ on a pin (probes on one pin share the line), attrs `temperature`
    /// (°C, 22 unless set), `deviceID` (12 hex digits, ROM bytes 1 to 6) and `familyCode` (hex, 28).
    mutating func addThermometer(_ part: WokwiDiagram.Part, at: String) -> WokwiProblem? {
        let text = part.attrs["temperature"] ?? "22"
        guard let celsius = Self.thermometerValue(text) else { return WokwiProblem("\(at): temperature \"\(text)\" is in °C, -55 to 125") }
        let id = part.attrs["deviceID"] ?? "010203040506", family = part.attrs["familyCode"] ?? "28"
        let digits = Array(id)
        let serial = stride(from: 0, to: digits.count, by: 2).compactMap { i in i + 1 < digits.count ? UInt8(String(digits[i...(i + 1)]), radix: 16) : nil }
        guard digits.count == 12, serial.count == 6 else { return WokwiProblem("\(at): deviceID \"\(id)\" is 12 hex digits, e.g. 010203040506") }
        guard let code = UInt8(family, radix: 16) else { return WokwiProblem("\(at): familyCode \"\(family)\" is a hex byte, e.g. 28") }
        guard let pin = ioPin(of: part.id + ":DQ", in: strictNets) else {
            notices.append("\(at): DQ (its 1-Wire line) is not wired to a pin: ignored")
            return nil
        }
        if let other = thermometers.first(where: { $0.pin == pin && $0.probe.serial == serial && $0.probe.familyCode == code }) {
            return WokwiProblem("\(at): the same deviceID as \(quoted(other.id)) on one line; give each its own deviceID")
        }
        thermometers.append((part.id, pin, AVRMachine.ThermometerProbe(familyCode: code, serial: serial, celsius: celsius)))
        return nil
    }

    /// A DS18B20's temperature (attr or control): −55 to 125 °C, its range.
    static func thermometerValue(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap { (-55...125).contains($0) ? $0 : nil }
    }

    /// The line and place on it of thermometer `id`, as the machine numbers them (one line a pin, in first-seen order).
    func thermometerPlace(_ id: String) -> (bus: Int, probe: Int)? {
        guard let mine = thermometers.first(where: { $0.id == id }) else { return nil }
        let pins = thermometers.map(\.pin).reduce(into: [AVRPin]()) { if !$0.contains($1) { $0.append($1) } }
        guard let bus = pins.firstIndex(of: mine.pin) else { return nil }
        return (bus, thermometers.filter { $0.pin == mine.pin }.firstIndex { $0.id == id }!)
    }

    /// A DHT22's temperature (°C, −40 to 80) or humidity (%, 0 to 100), from an attr or a control: the sensor's ranges.
    static func humiditySensorValue(_ name: String, _ text: String) -> Double? {
        let range: ClosedRange<Double> = name == "temperature" ? -40...80 : 0...100
        return Double(text.trimmingCharacters(in: .whitespaces)).flatMap { range.contains($0) ? $0 : nil }
    }

    /// What is wrong with a DHT22 value, naming the range.
    static func humiditySensorRange(_ name: String, _ text: String) -> String {
        name == "temperature" ? "temperature \"\(text)\" is in °C, -40 to 80" : "humidity \"\(text)\" is in %, 0 to 100"
    }

    /// An HC-SR04's distance in cm (attr or control): 2 to 400, the module's range.
    static func rangerDistance(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap { (2...400).contains($0) ? $0 : nil }
    }
}
