/// The Arduino boards the AVR engine runs (Hardware/boards.mk's names), as
/// their headers name their pins: the simavr core, each digital and analog
/// pin's port pin (the Arduino core's variants/*/pins_arduino.h), the I2C bus
/// and the serial port's pins, and where MPU-6050 sketches put INT.
public enum ArduinoBoard: String, Sendable, CaseIterable {
    /// ATmega328P boards (the Nano's header is the Uno's), an ATmega2560 and
    /// the ATmega32U4 boards, whose `Serial` is the chip's own USB.
    case uno, nano, mega, leonardo, micro
    /// SparkFun's Pro Micro of 3.3 V: an ATmega32U4 at 8 MHz with the Leonardo's pins.
    case proMicro8MHz = "promicro-8mhz"
    /// The Pro Mini of 3.3 V: an ATmega328P at 8 MHz with the Nano's pins.
    case proMini8MHz = "promini-8mhz"

    /// The chip on it.
    public var chip: AVRChip {
        switch self {
        case .uno, .nano, .proMini8MHz: .atmega328p
        case .mega: .atmega2560
        case .leonardo, .micro, .proMicro8MHz: .atmega32u4
        }
    }

    /// The simavr core (`AVRMachine.Configuration.mcu`).
    public var mcu: String { chip.mcu }

    /// The crystal, Hz (`AVRMachine.Configuration.frequency`): 16 MHz, 8 on the 3.3 V Pro Micro and Pro Mini.
    public var frequency: UInt32 { self == .proMicro8MHz || self == .proMini8MHz ? 8_000_000 : 16_000_000 }
    /// The supply, mV (`AVRMachine.Configuration.supplyMillivolts`): 5 V, 3.3 V on the Pro Micro and Pro Mini of 3.3 V.
    public var supplyMillivolts: UInt32 { self == .proMicro8MHz || self == .proMini8MHz ? 3300 : 5000 }

    /// For messages: "Arduino Leonardo".
    public var title: String {
        switch self {
        case .uno: "Arduino Uno"
        case .nano: "Arduino Nano"
        case .mega: "Arduino Mega 2560"
        case .leonardo: "Arduino Leonardo"
        case .micro: "Arduino Micro"
        case .proMicro8MHz: "SparkFun Pro Micro 3.3 V"
        case .proMini8MHz: "Arduino Pro Mini 3.3 V"
        }
    }

    // The header, the bus and the serial port go by the chip: every board of
    // a chip here uses its Arduino variant's pins (the Nano's and Pro Mini's
    // eightanaloginputs is the Uno's standard, the Pro Micro's the Leonardo's).

    /// The I2C bus's data pin (A4 on the Uno, 20 on the Mega, 2 on the 32U4).
    public var sda: AVRPin { digital[usbSerial ? 2 : chip == .atmega2560 ? 20 : 18] }
    /// The I2C bus's clock pin (A5, 21, 3).
    public var scl: AVRPin { digital[usbSerial ? 3 : chip == .atmega2560 ? 21 : 19] }

    /// The bus pins' header names, for messages ("A4/A5", "20/21", "2/3").
    public var busNames: String {
        switch chip {
        case .atmega328p: "A4/A5"
        case .atmega2560: "SDA/SCL (20/21)"
        case .atmega32u4: "SDA/SCL (2/3)"
        }
    }

    /// Whether `Serial` is the chip's own USB (the ATmega32U4's): then D0/D1
    /// are a second UART, free for parts.
    public var usbSerial: Bool { chip == .atmega32u4 }

    /// Whether a host opening its serial port resets it: the USB serial chip's
    /// DTR pulses RESET through a 100 nF capacitor (the Uno's and Mega's 16U2,
    /// a Nano's CH340 or FT232, a Pro Mini's FTDI adapter). A 32U4's port is its
    /// own USB, whose DTR the sketch sees (`if (Serial)`) and which resets nothing.
    public var resetsWhenPortOpens: Bool { !usbSerial }

    /// Where MPU-6050 sketches for this board wire INT: D2 (INT0 on the
    /// ATmega328P, INT4 on the Mega), D7 on the 32U4 (INT6; its D2 is SDA).
    public var defaultInterruptPin: AVRPin { usbSerial ? digital[7] : digital[2] }

    /// Digital pin `n` of the header ("D13" is 13: D0…D13, D0…D53 on the
    /// Mega), or nil if the header has none; the analog pins go by their A names.
    public func digitalPin(_ n: Int) -> AVRPin? { n >= 0 && n < headerDigitalCount ? digital[n] : nil }

    /// Analog pin `n` (A0…), or nil if the board has no port pin behind it
    /// (the Nano's A6/A7 are ADC-only).
    public func analogPin(_ n: Int) -> AVRPin? { n >= 0 && n < analogCount ? digital[analogBase + n] : nil }

    /// A pin by its header name ("D7", "7", "A0"), or by its port name
    /// ("PE6") if the board breaks it out; case-insensitive.
    public func pin(named name: String) -> AVRPin? {
        let upper = name.uppercased()
        if upper.count == 3, upper.hasPrefix("P"), let bit = UInt8(upper.suffix(1)), bit < 8 {
            let pin = AVRPin(port: upper[upper.index(after: upper.startIndex)], bit: bit)
            return digital.contains(pin) ? pin : nil
        }
        if upper.hasPrefix("A"), let n = Int(upper.dropFirst()) { return analogPin(n) }
        guard let n = Int(upper.hasPrefix("D") ? String(upper.dropFirst()) : upper) else { return nil }
        return digitalPin(n)
    }

    /// The pin's header name: "D7", or "A0" for an analog pin (by the lowest
    /// number that reaches it: the Leonardo's A6 is "D4"); its port name
    /// ("PE2") for a pin off the header (the ICSP pins, a LED).
    public func name(of pin: AVRPin) -> String {
        guard let n = digital.firstIndex(of: pin) else { return pin.description }
        if n < headerDigitalCount { return "D\(n)" }
        return (analogBase..<(analogBase + analogCount)).contains(n) ? "A\(n - analogBase)" : pin.description
    }

    /// Why a part's output should not drive `pin` (the serial port's or the
    /// I2C bus's pins), or nil.
    public func conflict(_ pin: AVRPin) -> String? {
        if !usbSerial, pin == digital[0] || pin == digital[1] { return "\(name(of: pin)) is the UART's (the serial port)" }
        if pin == sda || pin == scl { return "\(name(of: pin)) is the I2C bus's (SDA/SCL)" }
        return nil
    }

    /// How the one-line messages name the board's pins: "an Uno pin, D2 to D13 or A0 to A3".
    public var pinsForMessages: String {
        switch chip {
        case .atmega328p: "an Uno pin, D2 to D13 or A0 to A3"
        case .atmega2560: "a Mega 2560 pin, D2 to D19, D22 to D53 or A0 to A15"
        case .atmega32u4: "a Leonardo pin, D0, D1, D4 to D13 or A0 to A5"
        }
    }

    /// The header's digital pins: D0…D13, D0…D53 on the Mega.
    private var headerDigitalCount: Int { chip == .atmega2560 ? 54 : 14 }

    /// Where the analog pins start among the core's pin numbers (A0 is 14 on the Uno).
    private var analogBase: Int {
        switch chip {
        case .atmega328p: 14
        case .atmega2560: 54
        case .atmega32u4: 18
        }
    }

    private var analogCount: Int {
        switch chip {
        case .atmega328p: 6
        case .atmega2560: 16
        case .atmega32u4: 12
        }
    }

    /// Digital pins 0… as port pins.
    private var digital: [AVRPin] {
        switch chip {
        case .atmega328p: Self.standardPins
        case .atmega2560: Self.megaPins
        case .atmega32u4: Self.leonardoPins
        }
    }

    private static func pins(_ names: [String]) -> [AVRPin] {
        names.map { AVRPin(port: $0.first!, bit: UInt8(String($0.last!))!) }
    }

    /// variants/standard: D0…D13, then A0…A5 as D14…D19.
    private static let standardPins = pins([
        "D0", "D1", "D2", "D3", "D4", "D5", "D6", "D7", "B0", "B1", "B2", "B3", "B4", "B5",
        "C0", "C1", "C2", "C3", "C4", "C5",
    ])

    /// variants/mega: D0…D53, then A0…A15 as D54…D69.
    private static let megaPins = pins([
        "E0", "E1", "E4", "E5", "G5", "E3", "H3", "H4", "H5", "H6", "B4", "B5", "B6", "B7", "J1", "J0",
        "H1", "H0", "D3", "D2", "D1", "D0", "A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "C7", "C6",
        "C5", "C4", "C3", "C2", "C1", "C0", "D7", "G2", "G1", "G0", "L7", "L6", "L5", "L4", "L3", "L2",
        "L1", "L0", "B3", "B2", "B1", "B0",
        "F0", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "K0", "K1", "K2", "K3", "K4", "K5", "K6", "K7",
    ])

    /// variants/leonardo (the Micro's too): D0…D17, A0…A5 as D18…D23, then
    /// A6…A11 on D4, D6, D8, D9, D10, D12 again (D24…D29) and the TX LED (D30).
    private static let leonardoPins = pins([
        "D2", "D3", "D1", "D0", "D4", "C6", "D7", "E6", "B4", "B5", "B6", "B7", "D6", "C7",
        "B3", "B1", "B2", "B0",
        "F7", "F6", "F5", "F4", "F1", "F0",
        "D4", "D7", "B4", "B5", "B6", "D6", "D5",
    ])
}
