/// Hexadecimal for messages, listings and JSON: every digit the type holds
/// (zero-padded), so a byte is always two digits and a USB id always four.
public enum HexText {
    /// `value` in `bitWidth / 4` digits, no prefix: a UInt8 0x0A is "0a" ("0A" with
    /// `uppercase`), a UInt16 0x2341 is "2341" (as lsusb and udev show USB ids).
    public static func digits<T: FixedWidthInteger & UnsignedInteger>(_ value: T, uppercase: Bool = false) -> String {
        let digits = String(value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, T.bitWidth / 4 - digits.count)) + digits
    }

    /// "0x" and the digits in uppercase, as datasheets write addresses and
    /// registers: a UInt8 0x68 is "0x68", a UInt16 0x2A is "0x002A".
    public static func prefixed<T: FixedWidthInteger & UnsignedInteger>(_ value: T) -> String {
        "0x" + digits(value, uppercase: true)
    }
}
