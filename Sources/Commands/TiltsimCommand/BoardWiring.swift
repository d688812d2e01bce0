import BoardEmulator
import TiltCore

/// How the emulated AVR board's parts are wired: the SSD1306's and the
/// MPU-6050's I2C addresses, the GPIO the MPU-6050's INT pin drives and the
/// fastest clock the display answers at. From `--display-address`,
/// `--sensor-address`, `--sensor-int`, `--display-max-clock` or a scenario's
/// `board:` mapping; each reader's text goes through the same parsers.
struct BoardWiring: Equatable {
    /// 0x3C, or 0x3D for a module with SA0 high.
    var displayAddress: UInt8 = 0x3C
    /// 0x68, 0x69 for a part with AD0 high, or nil: no sensor on the bus.
    var sensorAddress: UInt8? = 0x68
    /// Where INT is wired: by default where the board's sketches expect it
    /// (D2; D7 on a Leonardo or Micro).
    var sensorInterrupt: InterruptWiring = .boardDefault
    /// The sensor's WHO_AM_I: 0x68 an MPU-6050; 0x70, 0x71, 0x73 and any other
    /// ID the MPU-6500 family (MPU6050Model.whoAmI).
    var sensorWhoAmI: UInt8 = 0x68
    /// The display's controller: ssd1306, or the sh1106 of 1.3" modules.
    var display: EmulatedDisplay = .ssd1306
    /// The fastest I2C clock the display answers at, Hz; nil: any (many modules take 1 MHz).
    var displayMaxClockHz: UInt32?

    /// The parts by name, for `--sensor` (any other value is a WHO_AM_I).
    static let sensorParts: [(name: String, whoAmI: UInt8)] = [
        ("mpu6050", 0x68), ("mpu6500", 0x70), ("mpu9250", 0x71), ("mpu9255", 0x73),
    ]

    static let standard = BoardWiring()

    /// "0x3C" or "0x3D" (also "3D", 60, 61).
    static func displayAddress(_ text: String) -> Result<UInt8, WiringProblem> {
        if text.lowercased() == "none" { return .success(absentDisplayAddress) }
        guard let value = address(text), value == 0x3C || value == 0x3D else {
            return .failure(WiringProblem("\(shortened(text)): an SSD1306 answers at 0x3C, or 0x3D with SA0 high (none: no display)"))
        }
        return .success(value)
    }

    /// Where the display model goes when there is none on the bus: nothing
    /// answers at 0x3C or 0x3D (0x7F is reserved by the I2C specification).
    static let absentDisplayAddress: UInt8 = 0x7F

    /// "ssd1306", "sh1106" or "ssd1306-128x32".
    static func display(_ text: String) -> Result<EmulatedDisplay, WiringProblem> {
        guard let display = EmulatedDisplay(rawValue: text.lowercased()) else {
            return .failure(WiringProblem("\(shortened(text)): name the display module, \(EmulatedDisplay.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        return .success(display)
    }

    /// "400k", "800k", "1m" (ClockText: "400 kHz", 400000 too): the fastest
    /// clock the display acknowledges at; "any" (the default) for a module
    /// that takes any.
    static func displayMaxClock(_ text: String) -> Result<UInt32?, WiringProblem> {
        if text.lowercased() == "any" { return .success(nil) }
        guard let hz = ClockText.hertz(text), (100_000...1_000_000).contains(hz) else {
            return .failure(WiringProblem("\(shortened(text)): give the display's fastest clock, 100k to 1m (400k, 800k, 1m), or any"))
        }
        return .success(hz)
    }

    /// "0x68", "0x69" or "none".
    static func sensorAddress(_ text: String) -> Result<UInt8?, WiringProblem> {
        if text.lowercased() == "none" { return .success(nil) }
        guard let value = address(text), value == 0x68 || value == 0x69 else {
            return .failure(WiringProblem("\(shortened(text)): an MPU-6050 answers at 0x68, or 0x69 with AD0 high (none: no sensor)"))
        }
        return .success(value)
    }

    /// "mpu6050", "mpu6500", "mpu9250", "mpu9255", or a WHO_AM_I ("0x98" for the look-alike most sold on GY-521 boards).
    static func sensorPart(_ text: String) -> Result<UInt8, WiringProblem> {
        if let part = sensorParts.first(where: { $0.name == text.lowercased() }) { return .success(part.whoAmI) }
        guard let value = address(text), value != 0x00, value != 0xFF else {
            return .failure(WiringProblem("\(shortened(text)): name a part (\(sensorParts.map(\.name).joined(separator: ", "))) or its WHO_AM_I, e.g. 0x98 (not 0x00 or 0xFF)"))
        }
        return .success(value)
    }

    /// A pin of `board` by its header name (D2, D3, D8, A0; PD2-style too) or "none".
    static func interruptPin(_ text: String, on board: ArduinoBoard) -> Result<InterruptWiring, WiringProblem> {
        if text.lowercased() == "none" { return .success(.notWired) }
        guard let pin = board.pin(named: text) else {
            return .failure(WiringProblem("\(shortened(text)): name \(board.pinsForMessages) (or PD2-style), or none"))
        }
        if let conflict = board.conflict(pin) { return .failure(WiringProblem("\(shortened(text)): \(conflict); pick another pin")) }
        return .success(.pin(pin))
    }

    /// The parser for `interruptPin` on `board`, as the readers of wiring text take one.
    static func interruptPin(on board: ArduinoBoard) -> (String) -> Result<InterruptWiring, WiringProblem> {
        { interruptPin($0, on: board) }
    }

    /// Hex with 0x, bare hex of two digits, or decimal.
    private static func address(_ text: String) -> UInt8? {
        let lower = text.lowercased()
        if lower.hasPrefix("0x") { return UInt8(lower.dropFirst(2), radix: 16) }
        if lower.count == 2, lower.contains(where: { "abcdef".contains($0) }) { return UInt8(lower, radix: 16) }
        return UInt8(lower)
    }

    /// Applies the wiring to a board factory (avr boards only use it).
    func apply(to factory: inout EmulatedBoardFactory) {
        factory.displayAddress = displayAddress
        factory.sensorAddress = sensorAddress
        factory.sensorInterrupt = sensorAddress == nil ? .notWired : sensorInterrupt
        factory.sensorWhoAmI = sensorWhoAmI
        factory.display = display
        factory.displayMaxClockHz = displayMaxClockHz
    }

    /// Applies the wiring to a machine's configuration for `board`.
    func apply(to configuration: inout AVRMachine.Configuration, board: ArduinoBoard) {
        configuration.displayAddress = displayAddress
        configuration.sensorAddress = sensorAddress
        configuration.sensorInterruptPin = sensorAddress == nil ? nil : sensorInterrupt.pin(on: board)
        configuration.sensorWhoAmI = sensorWhoAmI
        configuration.display = display
        configuration.displayMaxClockHz = displayMaxClockHz
    }

    /// One line, for the run's account: "SSD1306 at 0x3D, MPU-6050 at 0x69 (INT on D3)" (SH1106 for that
    /// display; "SSD1306 at 0x3C (up to 400 kHz)" for a display with a clock limit), pins named as `board` names them.
    func summary(on board: ArduinoBoard) -> String {
        let part = switch display {
        case .ssd1306: "SSD1306"
        case .sh1106: "SH1106"
        case .ssd1306_128x32: "SSD1306 128x32"
        }
        var display = displayAddress == Self.absentDisplayAddress ? "no display" : part + " at " + HexText.prefixed(displayAddress)
        if let displayMaxClockHz, displayAddress != Self.absentDisplayAddress { display += " (up to \(displayMaxClockHz / 1000) kHz)" }
        guard let sensorAddress else { return display + ", no MPU-6050" }
        return display + ", \(sensorName) at \(HexText.prefixed(sensorAddress)) (INT " + (sensorInterrupt.pin(on: board).map { "on \(board.name(of: $0))" } ?? "not wired") + ")"
    }

    /// "MPU-6050", "MPU-6500", … or "MPU-6050 look-alike (WHO_AM_I 0x98)".
    var sensorName: String {
        switch sensorWhoAmI {
        case 0x68: "MPU-6050"
        case 0x70: "MPU-6500"
        case 0x71: "MPU-9250"
        case 0x73: "MPU-9255"
        default: "MPU-6050 look-alike (WHO_AM_I \(HexText.prefixed(sensorWhoAmI)))"
        }
    }
}

/// Why a wiring value is wrong: "VALUE: why; the fix", for the caller to
/// prefix with where the value came from.
struct WiringProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }

    func from(_ place: String) -> WiringProblem { WiringProblem(place + " " + message) }
}
