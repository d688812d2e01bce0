/// CRC-16/CCITT-FALSE (CRC-16/IBM-3740): polynomial 0x1021, initial 0xFFFF, no
/// reflection, no final XOR. Check value for "123456789": 0x29B1.
///
/// The protocol's frame check and the content tile's id both use it
/// (docs/protocol.md).
public struct CRC16: Hashable, Sendable {
    /// The register's starting value, 0xFFFF.
    public static let initial: UInt16 = 0xFFFF

    /// The CRC of the bytes so far (the checksum once all are in).
    public var value: UInt16

    /// A CRC starting at `value` (0xFFFF for a fresh one).
    @inlinable public init(value: UInt16 = CRC16.initial) { self.value = value }

    /// Adds one byte, most significant bit first (by table; the step avr-libc's `_crc_xmodem_update` takes).
    @inlinable public mutating func update(_ byte: UInt8) {
        value = (value << 8) ^ CRC16.table[Int(UInt8(value >> 8) ^ byte)]
    }

    /// Adds the bytes in order.
    @inlinable public mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { update(byte) }
    }

    /// The CRC of `bytes`, from the initial value.
    @inlinable public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc = CRC16()
        crc.update(bytes)
        return crc.value
    }

    /// One entry per high byte: 256 × 2 bytes, built once.
    @usableFromInline static let table: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index) << 8
        for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        return crc
    }
}
