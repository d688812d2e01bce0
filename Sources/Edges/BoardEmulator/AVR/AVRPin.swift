/// An ATmega328P I/O pin, as a part's output is wired to it.
public struct AVRPin: Sendable, Hashable, CustomStringConvertible {
    /// "B", "C" or "D".
    public var port: Character
    /// 0...7.
    public var bit: UInt8

    /// Pin `bit` (0...7) of I/O port `port` ("B", "C" or "D"), e.g. PD2.
    public init(port: Character, bit: UInt8) {
        self.port = port
        self.bit = bit
    }

    /// Arduino Uno/Nano digital pin 2 (PD2, INT0): where MPU-6050 sketches expect INT.
    public static let d2 = AVRPin(port: "D", bit: 2)
    /// Digital pin 3 (PD3, INT1).
    public static let d3 = AVRPin(port: "D", bit: 3)

    /// The datasheet's name: "PD2".
    public var description: String { "P\(port)\(bit)" }

    /// A pin by its Arduino Uno/Nano name (D0…D13, A0…A5; "2" for D2) or its
    /// port name (PB0…PB7, PC0…PC5, PD0…PD7), case-insensitive; nil if it is neither.
    public init?(name: String) {
        let upper = name.uppercased()
        if upper.count == 3, upper.hasPrefix("P"), let bit = UInt8(upper.suffix(1)), bit < 8 {
            let port = upper[upper.index(after: upper.startIndex)]
            guard port == "B" || port == "D" || (port == "C" && bit < 6) else { return nil }
            self.init(port: port, bit: bit)
            return
        }
        if upper.hasPrefix("A"), let n = UInt8(upper.dropFirst()), n < 6 {
            self.init(port: "C", bit: n)
            return
        }
        guard let n = UInt8(upper.hasPrefix("D") ? String(upper.dropFirst()) : upper), n < 14 else { return nil }
        self.init(port: n < 8 ? "D" : "B", bit: n < 8 ? n : n - 8)
    }

    /// The pin's Arduino Uno/Nano name ("D2", "A0"), or its port name for pins the board does not break out.
    public var arduinoName: String {
        switch port {
        case "D": "D\(bit)"
        case "B" where bit < 6: "D\(bit + 8)"
        case "C" where bit < 6: "A\(bit)"
        default: description
        }
    }

    /// Why a part's output should not be wired here (the UART's or the I2C bus's pins), or nil.
    public var conflict: String? {
        switch (port, bit) {
        case ("D", 0), ("D", 1): "\(arduinoName) is the UART's (the serial port)"
        case ("C", 4), ("C", 5): "\(arduinoName) is the I2C bus's (SDA/SCL)"
        default: nil
        }
    }
}
