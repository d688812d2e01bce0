import WireProtocol

/// One OFFSETS frame's wire bytes (COBS-encoded, delimiter included), stored
/// inline so producing one per tick never allocates. At most 15 bytes: a
/// 13-byte payload, one COBS code byte, the delimiter.
public struct OffsetsWire: Hashable, Sendable {
    /// Bytes of inline storage (the frame needs at most 15).
    public static let capacity = 16
    @usableFromInline var storage: (UInt64, UInt64) = (0, 0)
    /// Bytes in use.
    public private(set) var count = 0
    /// The frame these bytes encode.
    public private(set) var frame: OffsetsFrame

    /// Encodes `frame`.
    public init(_ frame: OffsetsFrame) {
        self.frame = frame
        let payload = frame.payload
        var written = 0
        payload.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &storage) { destination in
                written = COBS.encode(source, into: destination)
                destination[written] = WireFormat.delimiter
            }
        }
        count = written + 1
    }

    /// The wire bytes, for writing to the port.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var copy = storage
        let count = self.count
        return try Swift.withUnsafeBytes(of: &copy) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// The wire bytes as an array (tests, tools).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}

extension OffsetsWire {
    // The bytes follow from the frame alone.
    /// Equal when the frames are (the bytes follow from the frame).
    public static func == (a: OffsetsWire, b: OffsetsWire) -> Bool { a.frame == b.frame }
    /// Hashes the frame alone, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(frame) }
}
