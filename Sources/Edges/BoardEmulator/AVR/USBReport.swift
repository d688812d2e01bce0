/// A packet a native-USB board (the ATmega32U4's) sent on an interrupt IN
/// endpoint other than its serial port's: a HID mouse's or keyboard's report
/// (`HID().SendReport`, the Mouse and Keyboard libraries). The emulated host
/// polls such endpoints once a millisecond, as a PC does.
public struct USBReport: Sendable, Hashable {
    /// The endpoint's number (without the IN bit).
    public var endpoint: UInt8
    /// Board time the host read it, µs since power-on.
    public var atMicros: UInt64
    /// The packet as sent: with the Arduino HID library, the report id first.
    public var bytes: [UInt8]

    /// A report read from `endpoint` at `atMicros`.
    public init(endpoint: UInt8, atMicros: UInt64, bytes: [UInt8]) {
        self.endpoint = endpoint
        self.atMicros = atMicros
        self.bytes = bytes
    }

    /// "ep4 01 00 03 fe 00".
    public var line: String {
        "ep\(endpoint) " + bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
    }
}
