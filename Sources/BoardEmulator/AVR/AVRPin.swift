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
}
