import BoardEmulator
import TiltCore

/// What a Wokwi diagram builds in tiltsim: the board, how the MPU-6050 and the
/// SSD1306 are wired (the wires decide: a part whose SDA/SCL do not reach the
/// board's bus is absent), the sensor's initial state, and the simple parts a
/// scenario may press or read. Pure: from a `WokwiDiagram` to values.
struct WokwiSetup {
    var board: WokwiBoard
    var boardID: String
    var wiring: BoardWiring
    /// The sensor's part id, when one is on the bus.
    var sensorID: String?
    /// Its attrs as the initial state.
    var sensorState = WokwiSensorState()
    /// The display's part id, when one is on the bus.
    var displayID: String?
    /// Pushbuttons by id: the pin they drive and the level pressing gives.
    var buttons: [String: (pin: AVRPin, pressedHigh: Bool)] = [:]
    /// Pins a resistor pulls to 5 V (`high`) or GND: they read it while nothing drives them.
    var pulls: [(pin: AVRPin, high: Bool)] = []
    /// Pins wired straight to GND or 5V (a strap): they read it.
    var straps: [(pin: AVRPin, high: Bool)] = []
    /// Pins wired to each other (a jumper, a loopback from TX to RX): an output drives the other.
    var jumpers: [(AVRPin, AVRPin)] = []
    /// Potentiometers' wipers (a joystick's axes, a light sensor's AO) on
    /// analog inputs: the ADC channel and the millivolts it reads.
    var analogInputs: [(id: String, channel: Int, millivolts: UInt32)] = []
    /// HC-SR04 rangers with TRIG and ECHO on pins, in the order the machine adds them.
    var rangers: [(id: String, trigger: AVRPin, echo: AVRPin, centimetres: Double)] = []
    /// DHT22 sensors with their data line on a pin, in the order the machine adds them.
    var humiditySensors: [(id: String, pin: AVRPin, celsius: Double, humidity: Double)] = []
    /// HX711 load cell amplifiers with SCK and DT on pins, in the order the machine adds them (no load at start).
    var loadCells: [(id: String, clock: AVRPin, data: AVRPin)] = []
    /// DS18B20 thermometers by the pin their DQ is on, in diagram order (the machine adds one line a pin).
    var thermometers: [(id: String, pin: AVRPin, probe: AVRMachine.ThermometerProbe)] = []
    /// Analog joysticks: the ADC channels HORZ and VERT reach, and the pin SEL is on (each when wired).
    var joysticks: [String: (horizontal: Int?, vertical: Int?, select: AVRPin?)] = [:]
    /// Photoresistor modules: their AO's channel and DO's pin (when wired), and their attrs.
    var lightSensors: [String: (channel: Int?, digital: AVRPin?, sensor: WokwiLightSensor)] = [:]
    /// NTC temperature sensors by id, at their attrs (OUT's channel is in `analogInputs`).
    var thermistors: [String: WokwiThermistor] = [:]
    /// The Uno's `frequency` attr ("8m", "16m", "20m", or hertz): the chip's
    /// clock; nil keeps the board's crystal.
    var frequency: UInt32?
    /// The UART the serial monitor is wired to (`$serialMonitor` wires; 0,
    /// Serial, without them): the Mega's Serial1–3 by their pins.
    var serialPort = 0
    /// Every part by id, with its type, for scenario steps to check against.
    var partTypes: [String: String] = [:]
    /// One line for each part or wire tiltsim does not model, or wires that leave a part absent.
    var notices: [String] = []
    let nets: WokwiNets
    let strictNets: WokwiNets

    /// Parts that carry no behaviour here (their wires still count; Wokwi's
    /// ground and supply symbols are the board's GND and 5V).
    static let passiveTypes = ["wokwi-led", "wokwi-resistor", "wokwi-breadboard", "wokwi-breadboard-half", "wokwi-breadboard-mini",
                               "wokwi-gnd", "wokwi-vcc"]

    /// The pins of the parts tiltsim models, as Wokwi's part references name
    /// them: a wire to another name is a typo, said in one line.
    static let partPins: [String: [String]] = [
        "wokwi-mpu6050": ["INT", "AD0", "XCL", "XDA", "SDA", "SCL", "GND", "VCC"],
        "board-ssd1306": ["GND", "VCC", "SCL", "SDA"],
        "wokwi-ssd1306": ["DATA", "CLK", "DC", "RST", "CS", "3V3", "GND", "VIN"],
        "wokwi-pushbutton": ["1.l", "2.l", "1.r", "2.r"],
        "wokwi-pushbutton-6mm": ["1.l", "2.l", "1.r", "2.r"],
        "wokwi-potentiometer": ["GND", "SIG", "VCC"],
        "wokwi-slide-potentiometer": ["VCC", "SIG", "GND"],
        "wokwi-led": ["A", "C"],
        "wokwi-resistor": ["1", "2"],
        "wokwi-analog-joystick": ["VCC", "VERT", "HORZ", "SEL", "GND"],
        "wokwi-photoresistor-sensor": ["VCC", "GND", "DO", "AO"],
        "wokwi-ntc-temperature-sensor": ["VCC", "OUT", "GND"],
        "wokwi-hc-sr04": ["VCC", "TRIG", "ECHO", "GND"],
        "wokwi-dht22": ["VCC", "SDA", "NC", "GND"],
        "wokwi-ds18b20": ["VCC", "DQ", "GND"],
        "wokwi-slide-switch": ["1", "2", "3"],
        "wokwi-hx711": ["VCC", "DT", "SCK", "GND", "E+", "E-", "A-", "A+", "B-", "B+"],
        "wokwi-gnd": ["GND"],
        "wokwi-vcc": ["VCC"],
    ]

    static func resolve(_ diagram: WokwiDiagram, file: String) -> Result<WokwiSetup, WokwiProblem> {
        let boards = diagram.parts.filter { WokwiBoard(rawValue: $0.type) != nil }
        guard let boardPart = boards.first, let board = WokwiBoard(rawValue: boardPart.type) else {
            let others = diagram.parts.filter { $0.type.contains("arduino") || $0.type.contains("esp32") || $0.type.contains("pi-pico") }.map(\.type)
            return .failure(WokwiProblem("\(file): no Arduino Uno, Nano or Mega (\(WokwiBoard.allCases.map(\.rawValue).joined(separator: ", ")))"
                                         + (others.isEmpty ? "" : "; \(others[0]) is not modelled by tiltsim wokwi")
                                         + (others.first.map { $0.contains("leonardo") || $0.contains("micro") } == true
                                            ? "; tiltsim run --board leonardo runs an ATmega32U4 sketch" : "")))
        }
        if boards.count > 1 { return .failure(WokwiProblem("\(file): \(boards.count) boards; tiltsim runs one board a project")) }
        var setup = WokwiSetup(board: board, boardID: boardPart.id, wiring: .standard,
                               nets: WokwiNets(diagram, throughResistors: true), strictNets: WokwiNets(diagram, throughResistors: false))
        setup.wiring.sensorAddress = nil
        setup.wiring.sensorInterrupt = .notWired
        setup.wiring.displayAddress = BoardWiring.absentDisplayAddress
        for part in diagram.parts { setup.partTypes[part.id] = part.type }
        if let text = boardPart.attrs["frequency"], !text.isEmpty {
            guard let hertz = frequency(text) else {
                return .failure(WokwiProblem("\(file): \(board.rawValue) \(quoted(boardPart.id)): frequency \"\(text)\" is not a clock tiltsim runs; give 1m to 20m (\"8m\", \"16m\", \"20m\") or hertz"))
            }
            setup.frequency = hertz
        }
        // A wire to a board pin the name does not give is no wire: say so, not "not wired" later.
        var unknown: [String] = [], unlike: [String] = []
        for end in diagram.connections.flatMap({ [$0.0, $0.1] }) where end.hasPrefix(boardPart.id + ":") {
            let name = String(end.dropFirst(boardPart.id.count + 1))
            if board.pin(name) == nil {
                if !unknown.contains(name) { unknown.append(name) }
            } else if !board.wokwiPinNames.contains(name), !unlike.contains(name) {
                unlike.append(name)
            }
        }
        let names = board == .mega ? "13, A4, SDA, GND.1, 5V…" : "13, A4, A4.2, GND.1, 5V…"
        for name in unknown {
            setup.notices.append("\(file): \(board.rawValue) \(quoted(boardPart.id)) has no pin \(quoted(name)) (Wokwi names them \(names)): its wires are ignored")
        }
        // Taken here, but a test that passes here would fail on Wokwi: say so.
        for name in unlike {
            setup.notices.append("\(file): \(quoted("\(boardPart.id):\(name)")) is not a pin name of Wokwi's \(board.rawValue) (it names them \(names)): "
                                 + "wired here, but Wokwi leaves the wire unconnected; write it as Wokwi does")
        }
        setup.notices += misnamedEnds(diagram, file: file)
        var seen: Set<String> = [], repeated: [String] = []
        for part in diagram.parts where !seen.insert(part.id).inserted && !repeated.contains(part.id) { repeated.append(part.id) }
        for id in repeated {
            setup.notices.append("\(file): two parts have the id \(quoted(id)) (Wokwi's lint refuses it): tiltsim takes them as one part, their wires joined; give each part its own id")
        }
        for part in diagram.parts where part.id != boardPart.id {
            if let problem = setup.add(part, file: file) { return .failure(problem) }
        }
        if let line = unmodelled(diagram.parts.filter { $0.id != boardPart.id }, file: file) { setup.notices.append(line) }
        setup.findPullsAndStraps(diagram)
        setup.findJumpers(diagram)
        switch setup.serialMonitorPort(diagram.connections, file: file) {
        case .success(let port): setup.serialPort = port
        case .failure(let problem): return .failure(problem)
        }
        return .success(setup)
    }

    /// One line for each wire end that names no part, or a pin the part
    /// does not have (of the parts whose pins tiltsim knows): Wokwi leaves
    /// such a wire unconnected, and a typo (`imu1:ADO`) is easy to miss.
    private static func misnamedEnds(_ diagram: WokwiDiagram, file: String) -> [String] {
        let types = Dictionary(diagram.parts.map { ($0.id, $0.type) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        var lines: [String] = []
        for end in diagram.connections.flatMap({ [$0.0, $0.1] }) where !end.hasPrefix("$") && seen.insert(end).inserted {
            guard let colon = end.firstIndex(of: ":") else {
                lines.append(end.isEmpty ? "\(file): a wire with an empty end: ignored; give both ends as \"part:PIN\""
                                         : "\(file): a wire to \(quoted(end)), which names no pin (\"part:PIN\", e.g. \"led1:A\"): ignored")
                continue
            }
            let id = String(end[..<colon]), pin = String(end[end.index(after: colon)...])
            guard let type = types[id] else {
                lines.append("\(file): a wire to \(end), and no part has the id \(quoted(id)): ignored")
                continue
            }
            if let pins = partPins[type], !pins.contains(pin) {
                lines.append("\(file): \(type) \(quoted(id)) has no pin \(quoted(pin)) (it has \(pins.joined(separator: ", "))): its wire is ignored")
            }
        }
        return lines
    }

    /// "8m", "16m", "20m", "12000000": hertz from 1 MHz to the chip's 20 MHz.
    private static func frequency(_ text: String) -> UInt32? {
        ClockText.hertz(text).flatMap { (1_000_000...20_000_000).contains($0) ? $0 : nil }
    }

    /// The UART `$serialMonitor`'s wires reach: its RX on the UART's TX pin,
    /// its TX on the UART's RX pin (Wokwi's serial-monitor guide); 0 without
    /// such wires. Pins no UART has (a SoftwareSerial's) are refused: tiltsim
    /// shows a hardware UART only.
    private func serialMonitorPort(_ connections: [(String, String)], file: String) -> Result<Int, WokwiProblem> {
        var ports: [Int] = []
        for (a, b) in connections {
            for (monitor, other) in [(a, b), (b, a)] where monitor.hasPrefix("$serialMonitor:") && other.hasPrefix(boardID + ":") {
                let end = String(monitor.dropFirst("$serialMonitor:".count)).uppercased()
                let name = String(other.dropFirst(boardID.count + 1))
                guard let pin = board.pin(name), end == "RX" || end == "TX" else { continue }  // no such pin: noticed above
                let uart = board.uartPins.first { board.pin(end == "RX" ? $0.tx : $0.rx) == pin }
                guard let uart else {
                    let names = board.uartPins.map { "\($0.port == 0 ? "Serial" : "Serial\($0.port)") TX \($0.tx) RX \($0.rx)" }
                    return .failure(WokwiProblem("\(file): $serialMonitor:\(end) is wired to \(other), which is no UART's \(end == "RX" ? "TX" : "RX"); "
                                                 + "tiltsim shows a hardware UART (\(names.joined(separator: ", "))), not a SoftwareSerial"))
                }
                ports.append(uart.port)
            }
        }
        guard let first = ports.first else { return .success(0) }
        guard ports.allSatisfy({ $0 == first }) else {
            return .failure(WokwiProblem("\(file): $serialMonitor's RX and TX are wired to two UARTs; wire both to one"))
        }
        return .success(first)
    }

    /// The board's header pins a part's pin is wired to (through resistors
    /// when `nets` is the loose one); Wokwi's ground and supply symbols
    /// (`wokwi-gnd`, `wokwi-vcc`) count as the board's GND and 5V.
    func boardPins(of pin: String, in nets: WokwiNets? = nil) -> [WokwiBoard.Pin] {
        (nets ?? self.nets).net(of: pin).compactMap { member in
            if member.hasPrefix(boardID + ":") { return board.pin(String(member.dropFirst(boardID.count + 1))) }
            switch member.firstIndex(of: ":").flatMap({ partTypes[String(member[..<$0])] }) {
            case "wokwi-gnd": return .ground
            case "wokwi-vcc": return .supply
            default: return nil
            }
        }
    }

    /// The port pin a part's pin reaches, if one does.
    func ioPin(of pin: String, in nets: WokwiNets? = nil) -> AVRPin? {
        for case .io(let io) in boardPins(of: pin, in: nets) { return io }
        return nil
    }

    /// Resistors between a port pin and GND or 5V (a pull-down or pull-up),
    /// LEDs between them too, and port pins wired straight to one.
    private mutating func findPullsAndStraps(_ diagram: WokwiDiagram) {
        func rails(_ pins: [WokwiBoard.Pin]) -> Bool? {
            let ground = pins.contains(.ground), supply = pins.contains(.supply)
            return ground == supply ? nil : supply  // neither, or a short: nothing to say
        }
        for part in diagram.parts where part.type == "wokwi-resistor" {
            for (mine, other) in [("1", "2"), ("2", "1")] {
                guard let pin = ioPin(of: part.id + ":" + mine, in: strictNets),
                      let high = rails(boardPins(of: part.id + ":" + other, in: strictNets)) else { continue }
                pulls.append((pin, high))
            }
        }
        // An LED from a port pin to GND (through resistors or not) holds an
        // input there low: a red LED clamps it near 1.8 V, which reads 0, even
        // against the pin's pull-up. One from 5V leaves it near 3.2 V: 1. An
        // input with its pull-up switched off read the pull-up's 1 for good,
        // its LED shown lit (an outside tester's alarm sketch).
        for part in diagram.parts where part.type == "wokwi-led" {
            if let pin = ioPin(of: part.id + ":A"), rails(boardPins(of: part.id + ":C")) == false { pulls.append((pin, false)) }
            if let pin = ioPin(of: part.id + ":C"), rails(boardPins(of: part.id + ":A")) == true { pulls.append((pin, true)) }
        }
        var seen: Set<AVRPin> = []
        for name in diagram.connections.flatMap({ [$0.0, $0.1] }) where name.hasPrefix(boardID + ":") {
            guard case .io(let pin)? = board.pin(String(name.dropFirst(boardID.count + 1))), seen.insert(pin).inserted,
                  let high = rails(boardPins(of: name, in: strictNets)) else { continue }
            straps.append((pin, high))
        }
    }

    /// Port pins a wire joins to another port pin (through breadboard strips
    /// too): each pair once, in diagram order. Such a wire was dropped: pin 6
    /// wired to pin 7 read nothing of it (an outside tester's loopback).
    private mutating func findJumpers(_ diagram: WokwiDiagram) {
        var seen: Set<AVRPin> = []
        for name in diagram.connections.flatMap({ [$0.0, $0.1] }) where name.hasPrefix(boardID + ":") {
            guard case .io(let pin)? = board.pin(String(name.dropFirst(boardID.count + 1))), seen.insert(pin).inserted else { continue }
            for case .io(let other) in boardPins(of: name, in: strictNets) where other != pin && !seen.contains(other) {
                jumpers.append((pin, other))
            }
        }
    }

    /// The ADC input a part's pin reaches (a port pin's, or the Nano's A6/A7), if one does.
    func analogChannel(of pin: String) -> Int? {
        boardPins(of: pin, in: strictNets).lazy.compactMap(board.analogChannel(of:)).first
    }

    /// Whether a part's data and clock pins reach the board's bus (also on a
    /// net a wire joins to another pin: the first pin of it was compared,
    /// and a wire from D7 to A4 took the MPU-6050 off the bus).
    private func onBus(_ id: String, data: String = "SDA", clock: String = "SCL") -> Bool {
        boardPins(of: id + ":" + data, in: strictNets).contains(.io(board.sda))
            && boardPins(of: id + ":" + clock, in: strictNets).contains(.io(board.scl))
    }

    /// An SSD1306's `i2cAddress`: "0x3c" or "0x3d", or in decimal (60, 61) as Wokwi's docs also give it.
    static func displayAddress(_ text: String?) -> UInt8? {
        let text = (text ?? "0x3c").trimmingCharacters(in: .whitespaces).lowercased()
        let value = text.hasPrefix("0x") ? UInt8(text.dropFirst(2), radix: 16) : UInt8(text)
        return value == 0x3C || value == 0x3D ? value : nil
    }

    private mutating func add(_ part: WokwiDiagram.Part, file: String) -> WokwiProblem? {
        let at = "\(file): \(part.type) \(quoted(part.id))"
        switch part.type {
        case "wokwi-mpu6050":
            guard sensorID == nil else { return WokwiProblem("\(at): a second MPU-6050; tiltsim models one a board") }
            guard onBus(part.id) else {
                notices.append("\(at): SDA/SCL are not wired to the \(board.title)'s bus (\(board.busNames)): absent, nothing answers at 0x68")
                return nil
            }
            let ad0High = boardPins(of: part.id + ":AD0", in: strictNets).contains(.supply)
            wiring.sensorAddress = ad0High ? 0x69 : 0x68
            wiring.sensorInterrupt = ioPin(of: part.id + ":INT", in: strictNets).map { .pin($0) } ?? .notWired
            switch WokwiSensorState.parse(part.attrs) {
            case .success(let state): sensorState = state
            case .failure(let problem): return WokwiProblem("\(at): \(problem.message)")
            }
            sensorID = part.id
        case "board-ssd1306", "wokwi-ssd1306":
            // wokwi-ssd1306 is Wokwi's older part: the same display, its bus pins named DATA and CLK.
            let (data, clock) = part.type == "board-ssd1306" ? ("SDA", "SCL") : ("DATA", "CLK")
            guard displayID == nil else { return WokwiProblem("\(at): a second SSD1306; tiltsim models one a board") }
            guard onBus(part.id, data: data, clock: clock) else {
                notices.append("\(at): \(data)/\(clock) are not wired to the \(board.title)'s bus (\(board.busNames)): absent, nothing answers at 0x3C")
                return nil
            }
            // wokwi-ssd1306 also takes the attr as "i2c-address" (wokwi-cli's part registry).
            let attr = part.attrs["i2cAddress"] ?? part.attrs["i2c-address"]
            guard let address = Self.displayAddress(attr) else {
                return WokwiProblem("\(at): i2cAddress \(attr ?? ""): an SSD1306 answers at 0x3c or 0x3d (60 or 61)")
            }
            wiring.displayAddress = address
            displayID = part.id
        case "wokwi-pushbutton", "wokwi-pushbutton-6mm":
            // Pressing joins side 1 (1.l, 1.r) to side 2 (2.l, 2.r): one side on a port pin, the other on ground or a supply.
            for (mine, other) in [("1", "2"), ("2", "1")] {
                guard let pin = ioPin(of: part.id + ":\(mine).l", in: strictNets) else { continue }  // the legs of a side are joined
                let far = boardPins(of: part.id + ":\(other).l", in: strictNets)
                if far.contains(.ground) { buttons[part.id] = (pin, false) } else if far.contains(.supply) { buttons[part.id] = (pin, true) }
            }
            if buttons[part.id] == nil {
                notices.append("\(at): not wired between a pin and GND or 5V: pressing it changes nothing")
            }
        case "wokwi-potentiometer", "wokwi-slide-potentiometer":
            guard let channel = analogChannel(of: part.id + ":SIG") else {
                notices.append("\(at): SIG is not wired to an analog input: ignored")
                return nil
            }
            let text = part.attrs["value"] ?? "0"
            guard let value = Int(text), (0...1023).contains(value) else { return WokwiProblem("\(at): value \"\(text)\" is a whole number from 0 to 1023") }
            analogInputs.append((part.id, channel, WokwiADC.millivolts(reading: value)))
        case "wokwi-analog-joystick": addJoystick(part, at: at)
        case "wokwi-hc-sr04": return addRanger(part, at: at)
        case "wokwi-photoresistor-sensor": return addLightSensor(part, at: at)
        case "wokwi-ntc-temperature-sensor": return addThermistor(part, at: at)
        case "wokwi-dht22": return addHumiditySensor(part, at: at)
        case "wokwi-hx711": return addLoadCell(part, at: at)
        case "wokwi-ds18b20": return addThermometer(part, at: at)
        default:
            break  // passive, or not modelled: `unmodelled` names them all in one line
        }
        return nil
    }

    /// One line naming every part tiltsim does not model, each type once
    /// ("wokwi-7segment 'seg1', 'seg2'"): a line a part made eight lines for
    /// a game with three displays and their shift registers.
    /// Wokwi's parts on the I2C bus that tiltsim does not model (the LCDs with attr `pins: i2c` besides).
    private static let i2cTypes: Set<String> = ["wokwi-ds1307", "wokwi-pcf8574", "wokwi-bmp180", "wokwi-bme280", "wokwi-ina219"]

    private static func unmodelled(_ parts: [WokwiDiagram.Part], file: String) -> String? {
        let modelled = Set(partPins.keys).union(passiveTypes).union(["board-ssd1306", "wokwi-ssd1306"])
        var types: [String] = []
        var ids: [String: [String]] = [:]
        for part in parts where !modelled.contains(part.type) {
            if ids[part.type] == nil { types.append(part.type) }
            ids[part.type, default: []].append("'\(part.id)'")
        }
        guard !types.isEmpty else { return nil }
        let named = types.map { "\($0) \(ids[$0, default: []].joined(separator: ", "))" }.joined(separator: "; ")
        let onBus = parts.contains { i2cTypes.contains($0.type) || ($0.type.hasPrefix("wokwi-lcd") && $0.attrs["pins"] == "i2c") }
        return "\(file): not modelled by tiltsim, so ignored (its pins read as wires; a set-control or take-screenshot naming one "
            + "is refused\(onBus ? "; nothing answers at an I2C part's address" : "")): \(named)"
    }
}

/// The MPU-6050 part's controls (its attrs, and set-control's values): g, °/s
/// and °C, as counts at the ±2 g / ±250 °/s scales the motion sources speak
/// (the model scales them to the configured full scale: exact at every scale).
struct WokwiSensorState: Equatable {
    var accel = (x: 0.0, y: 0.0, z: 1.0)
    var rotation = (x: 0.0, y: 0.0, z: 0.0)
    var temperature = 24.0

    static func == (a: Self, b: Self) -> Bool {
        a.accel == b.accel && a.rotation == b.rotation && a.temperature == b.temperature
    }

    /// The controls' names, as Wokwi spells them.
    static let controls = ["accelX", "accelY", "accelZ", "rotationX", "rotationY", "rotationZ", "temperature"]

    /// Sets one control; a problem if the name or value is outside what the part takes.
    mutating func set(_ control: String, _ value: Double) -> WokwiProblem? {
        guard value.isFinite else { return WokwiProblem("\(control) must be a number") }
        switch control {
        case "accelX", "accelY", "accelZ":
            // Counts at ±2 g (16384 per g) are Int16: beyond ±2 g they would saturate whatever the full scale.
            guard abs(value) <= 2 else { return WokwiProblem("\(control) \(value): tiltsim takes -2…2 g") }
        case "rotationX", "rotationY", "rotationZ":
            guard abs(value) <= 250 else { return WokwiProblem("\(control) \(value): tiltsim takes -250…250 °/s") }
        case "temperature":
            guard value >= -40 && value <= 85 else { return WokwiProblem("temperature \(value): use -40…85 °C") }
        default:
            return WokwiProblem("no control \(quoted(control)); the MPU-6050 has \(Self.controls.joined(separator: ", "))")
        }
        switch control {
        case "accelX": accel.x = value
        case "accelY": accel.y = value
        case "accelZ": accel.z = value
        case "rotationX": rotation.x = value
        case "rotationY": rotation.y = value
        case "rotationZ": rotation.z = value
        default: temperature = value
        }
        return nil
    }

    static func parse(_ attrs: [String: String]) -> Result<WokwiSensorState, WokwiProblem> {
        var state = WokwiSensorState()
        for (key, text) in attrs.sorted(by: { $0.key < $1.key }) where controls.contains(key) {
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
                return .failure(WokwiProblem("attrs \(key) \"\(text)\" is not a number"))
            }
            if let problem = state.set(key, value) { return .failure(problem) }
        }
        return .success(state)
    }

    /// The reading, in the motion sources' counts (16384 per g, 131 per °/s, °C = raw / 340 + 36.53).
    var sample: RawSample {
        func g(_ v: Double) -> Int16 { Int16(clamping: Int((v * 16384).rounded())) }
        func dps(_ v: Double) -> Int16 { Int16(clamping: Int((v * 131).rounded())) }
        return RawSample(accel: Axes3(x: g(accel.x), y: g(accel.y), z: g(accel.z)),
                         temperature: Int16(clamping: Int(((temperature - 36.53) * 340).rounded())),
                         gyro: Axes3(x: dps(rotation.x), y: dps(rotation.y), z: dps(rotation.z)))
    }

    /// One line for the run's account: "accel 0, 0.5, 0.87 g; rotation 0, 0, 0 °/s; 24 °C".
    var summary: String {
        func f(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        return "accel \(f(accel.x)), \(f(accel.y)), \(f(accel.z)) g; rotation \(f(rotation.x)), \(f(rotation.y)), \(f(rotation.z)) °/s; \(f(temperature)) °C"
    }
}
