import BoardEmulator

/// The Arduino boards a Wokwi diagram may hold, as tiltsim builds them: the
/// simavr core, and each header pin's name in diagram.json mapped to the
/// AVR port pin behind it (the Arduino core's variant tables).
enum WokwiBoard: String, CaseIterable {
    case uno = "wokwi-arduino-uno"
    case nano = "wokwi-arduino-nano"
    case mega = "wokwi-arduino-mega"

    /// The board as the AVR engine knows it: its core and its header's pins.
    var arduino: ArduinoBoard {
        switch self {
        case .uno: .uno
        case .nano: .nano
        case .mega: .mega
        }
    }

    /// For messages: "Arduino Uno".
    var title: String { arduino.title }

    /// The I2C bus's data and clock pins.
    var sda: AVRPin { arduino.sda }
    var scl: AVRPin { arduino.scl }

    /// The bus pins' header names, for messages ("A4/A5", "20/21").
    var busNames: String { arduino.busNames }

    /// What a header pin is: a port pin, an analog-only input (the Nano's A6
    /// and A7: ADC6 and ADC7, no port behind them), a supply, ground, or
    /// something we do not model (RESET, AREF…).
    enum Pin: Equatable {
        case io(AVRPin)
        case analogOnly(channel: Int)
        case ground
        case supply
        case other
    }

    /// The header pin named `name` in diagram.json ("13", "A0", "SDA", "GND.1", "5V"); nil: the board has no such pin.
    /// A pin the board brings out twice is named again with a number: the
    /// Uno's A4.2 and A5.2 (SDA and SCL by AREF), the Nano's 12.2, 13.2 and
    /// 11.2 (its ICSP header), 5V.2, RESET.3: the same pin as A4, 12, 5V, RESET.
    /// The pin names Wokwi's part gives (wokwi-cli's diagram-lint registry):
    /// `pin(_:)` also takes D2, lowercase, SDA/SCL and other copies, which
    /// Wokwi leaves unconnected.
    var wokwiPinNames: Set<String> {
        let common = ["GND", "GND.1", "GND.2", "GND.3", "5V", "3.3V", "VIN", "RESET", "AREF"]
        switch self {
        case .uno:
            return Set((0...13).map(String.init) + (0...5).map { "A\($0)" } + common + ["IOREF", "A4.2", "A5.2"])
        case .nano:
            return Set((0...13).map(String.init) + (0...7).map { "A\($0)" } + common + ["5V.2", "RESET.2", "RESET.3", "11.2", "12.2", "13.2"])
        case .mega:
            return Set((0...53).map(String.init) + (0...15).map { "A\($0)" } + common + ["GND.4", "GND.5", "5V.1", "5V.2", "IOREF", "SCL", "SDA"])
        }
    }

    func pin(_ name: String) -> Pin? {
        var upper = name.uppercased()
        if let dot = upper.lastIndex(of: "."), let copy = Int(upper[upper.index(after: dot)...]), copy > 0 {
            upper = String(upper[..<dot])
        }
        if upper == "GND" { return .ground }
        if ["5V", "3.3V", "VIN", "IOREF", "VCC"].contains(upper) { return .supply }
        if ["RESET", "AREF", "RST"].contains(upper) || upper.hasPrefix("ICSP") { return .other }
        if self == .nano, upper == "A6" || upper == "A7" { return .analogOnly(channel: upper == "A6" ? 6 : 7) }
        if upper == "SDA" { return .io(sda) }
        if upper == "SCL" { return .io(scl) }
        guard upper.hasPrefix("A") || Int(upper.hasPrefix("D") ? String(upper.dropFirst()) : upper) != nil else { return nil }
        return arduino.pin(named: upper).map { .io($0) }
    }

    /// The hardware UARTs' header pins: Serial on 1 (TX) and 0 (RX); the
    /// Mega's Serial1 on 18/19, Serial2 on 16/17, Serial3 on 14/15.
    var uartPins: [(port: Int, tx: String, rx: String)] {
        switch self {
        case .uno, .nano: [(0, "1", "0")]
        case .mega: [(0, "1", "0"), (1, "18", "19"), (2, "16", "17"), (3, "14", "15")]
        }
    }

    /// The ADC input a header pin reaches: a port pin's (A0 = 0…) or an
    /// analog-only pin's; nil for a pin without one.
    func analogChannel(of pin: Pin) -> Int? {
        switch pin {
        case .io(let io): analogChannel(of: io)
        case .analogOnly(let channel): channel
        default: nil
        }
    }

    /// The ADC input behind a port pin (A0 = 0…), or nil for a pin without one.
    func analogChannel(of pin: AVRPin) -> Int? {
        switch (self, pin.port) {
        case (.uno, "C"), (.nano, "C"): pin.bit < 6 ? Int(pin.bit) : nil
        case (.mega, "F"): Int(pin.bit)
        case (.mega, "K"): 8 + Int(pin.bit)
        default: nil
        }
    }

    /// The header name of a port pin, for messages ("D2" on an Uno, "2" on a Mega).
    func name(of pin: AVRPin) -> String {
        let name = arduino.name(of: pin)
        return self == .mega && name.hasPrefix("D") ? String(name.dropFirst()) : name
    }
}
