import TiltCore

/// A frame of protocol version 1: a type, a fixed-size body, and how to
/// read and write that body. `encode(into:)` produces the wire bytes.
public protocol WireFrame: Hashable, Sendable {
    /// The type byte that starts the payload; its `bodyCount` fixes the body's size.
    static var frameType: FrameType { get }
    /// Reads the body; `body.count == Self.frameType.bodyCount` is guaranteed by the caller.
    init(body: UnsafeRawBufferPointer)
    /// Appends exactly `Self.frameType.bodyCount` bytes.
    func writeBody(to payload: inout PayloadBuffer)
}

extension WireFrame {
    /// The payload: type, body and big-endian CRC-16/CCITT-FALSE.
    @inlinable public var payload: PayloadBuffer {
        var payload = PayloadBuffer()
        payload.append(Self.frameType.rawValue)
        writeBody(to: &payload)
        let crc = payload.withUnsafeBytes { CRC16.checksum($0) }
        payload.append(UInt8(crc >> 8))
        payload.append(UInt8(crc & 0xFF))
        return payload
    }

    /// Appends the frame's wire bytes, COBS-encoded, delimiter included.
    /// Allocates only if `output` must grow.
    @inlinable public func encode(into output: inout [UInt8]) {
        payload.withUnsafeBytes { COBS.encode($0, appendingTo: &output) }
        output.append(WireFormat.delimiter)
    }

    /// The frame's wire bytes, delimiter included.
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(WireFormat.maxEncodedCount + 1)
        encode(into: &output)
        return output
    }
}
