import BoardEmulator

/// The Arduino boards a Wokwi diagram may hold, as tiltsim builds them: the
/// simavr core, and each header pin's name in diagram.json mapped to the
/// AVR port pin behind it (the Arduino core's variant tables).
enum WokwiBoard: String, CaseIterable {
    case uno = "wokwi-arduino-uno"
    case nano = "wokwi-arduino-nano"
    case mega = "wokwi-arduino-mega"

    /// The simavr core (`AVRMachine.Configuration.mcu`).
    var mcu: String { self == .mega ? "atmega2560" : "atmega328p" }

    /// For messages: "Arduino Uno".
    var title: String {
        switch self {
        case .uno: "Arduino Uno"
        case .nano: "Arduino Nano"
        case .mega: "Arduino Mega 2560"
        }
    }

    /// The I2C bus's data and clock pins.
    var sda: AVRPin { self == .mega ? AVRPin(port: "D", bit: 1) : AVRPin(port: "C", bit: 4) }
    var scl: AVRPin { self == .mega ? AVRPin(port: "D", bit: 0) : AVRPin(port: "C", bit: 5) }

    /// The bus pins' header names, for messages ("A4/A5", "20/21").
    var busNames: String { self == .mega ? "SDA/SCL (20/21)" : "A4/A5" }

    /// What a header pin is: a port pin, a supply, ground, or something we do not model (RESET, AREF…).
    enum Pin: Equatable {
        case io(AVRPin)
        case ground
        case supply
        case other
    }

    /// The header pin named `name` in diagram.json ("13", "A0", "SDA", "GND.1", "5V"); nil: the board has no such pin.
    func pin(_ name: String) -> Pin? {
        let upper = name.uppercased()
        if upper.hasPrefix("GND") { return .ground }
        if ["5V", "3.3V", "VIN", "IOREF", "VCC"].contains(upper) { return .supply }
        if ["RESET", "AREF", "RST", "RESET.1", "RESET.2"].contains(upper) || upper.hasPrefix("ICSP") { return .other }
        if upper == "SDA" { return .io(sda) }
        if upper == "SCL" { return .io(scl) }
        let digital = upper.hasPrefix("D") ? String(upper.dropFirst()) : upper
        if let n = Int(digital) { return digitalPin(n).map { .io($0) } }
        if upper.hasPrefix("A"), let n = Int(upper.dropFirst()) { return analogPin(n).map { .io($0) } }
        return nil
    }

    private func digitalPin(_ n: Int) -> AVRPin? {
        switch self {
        case .uno, .nano:
            guard n >= 0 && n < 14 else { return nil }
            return AVRPin(port: n < 8 ? "D" : "B", bit: UInt8(n < 8 ? n : n - 8))
        case .mega:
            guard n >= 0 && n < Self.megaDigital.count else { return nil }
            let entry = Self.megaDigital[n]
            return AVRPin(port: entry.first!, bit: UInt8(String(entry.last!))!)
        }
    }

    private func analogPin(_ n: Int) -> AVRPin? {
        switch self {
        case .uno: n < 6 ? AVRPin(port: "C", bit: UInt8(n)) : nil
        // A6/A7 are ADC-only inputs on the Nano: no port pin behind them.
        case .nano: n < 6 ? AVRPin(port: "C", bit: UInt8(n)) : nil
        case .mega: n < 16 ? AVRPin(port: n < 8 ? "F" : "K", bit: UInt8(n % 8)) : nil
        }
    }

    /// The Mega 2560's digital pins 0…53 as port and bit (the core's variants/mega/pins_arduino.h).
    private static let megaDigital: [String] = [
        "E0", "E1", "E4", "E5", "G5", "E3", "H3", "H4", "H5", "H6", "B4", "B5", "B6", "B7", "J1", "J0",
        "H1", "H0", "D3", "D2", "D1", "D0", "A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "C7", "C6",
        "C5", "C4", "C3", "C2", "C1", "C0", "D7", "G2", "G1", "G0", "L7", "L6", "L5", "L4", "L3", "L2",
        "L1", "L0", "B3", "B2", "B1", "B0",
    ]

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
        switch self {
        case .uno, .nano: return pin.arduinoName
        case .mega:
            if let n = Self.megaDigital.firstIndex(of: "\(pin.port)\(pin.bit)") { return String(n) }
            if pin.port == "F" { return "A\(pin.bit)" }
            if pin.port == "K" { return "A\(pin.bit + 8)" }
            return pin.description
        }
    }
}
