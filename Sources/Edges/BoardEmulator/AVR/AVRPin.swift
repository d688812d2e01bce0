/// An AVR I/O pin, as a part's output is wired to it (`ArduinoBoard` names
/// them as each board's header does).
public struct AVRPin: Sendable, Hashable, CustomStringConvertible {
    /// The port letter: "B", "C" or "D" on the ATmega328P; more on bigger chips.
    public var port: Character
    /// 0...7.
    public var bit: UInt8

    /// Pin `bit` (0...7) of I/O port `port`, e.g. PD2.
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
}
