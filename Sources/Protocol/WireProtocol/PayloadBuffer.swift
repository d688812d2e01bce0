/// A fixed 64-byte payload under construction (type, body, CRC), stored inline
/// so building a frame never allocates.
public struct PayloadBuffer: Sendable {
    @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0)
    /// Bytes written so far.
    public var count: Int { _count }
    @usableFromInline var _count = 0

    /// An empty payload.
    @inlinable public init() {}

    /// Appends one byte; the caller stays within 64 bytes (every frame does).
    @inlinable public mutating func append(_ byte: UInt8) {
        precondition(count < WireFormat.maxPayloadCount, "payload longer than 64 bytes")
        let index = _count
        withUnsafeMutableBytes(of: &storage) { $0[index] = byte }
        _count += 1
    }

    /// Appends two bytes, low byte first.
    @inlinable public mutating func appendLittleEndian(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// The low 24 bits of `value`, little-endian.
    @inlinable public mutating func appendLittleEndian24(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value >> 16))
    }

    /// Appends four bytes, low byte first.
    @inlinable public mutating func appendLittleEndian(_ value: UInt32) {
        appendLittleEndian(UInt16(truncatingIfNeeded: value))
        appendLittleEndian(UInt16(truncatingIfNeeded: value >> 16))
    }

    /// Calls `body` with the bytes written so far (valid only during the call).
    @inlinable public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: storage) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }
}

/// Little-endian field readers over a decoded payload or body.
extension UnsafeRawBufferPointer {
    @inlinable func u16(_ offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    @inlinable func u24(_ offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16
    }

    @inlinable func u32(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16
    }
}
