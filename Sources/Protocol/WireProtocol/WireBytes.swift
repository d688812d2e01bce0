/// Encoded frames ready for the port (COBS, a delimiter after each), stored
/// inline so producing them never allocates: the one byte-buffer type every
/// host → board write goes through (OFFSETS, a tick's DRAWER and PIN,
/// HOST_HELLO, SYNC, DESCRIBE), so the shell has one `write`.
public struct WireBytes: Sendable {
    /// Bytes of inline storage: room for any one host → board frame (the
    /// longest, DRAWER, takes 16) or a tick's DRAWER and PIN (27).
    public static let capacity = 32
    @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// Bytes in use.
    public private(set) var count = 0

    /// No frames yet.
    public init() {}

    /// The wire bytes of `frame`.
    public init(_ frame: some WireFrame) {
        append(frame)
    }

    /// Appends `frame`'s wire bytes; the caller stays within `capacity` (every
    /// host → board write does).
    public mutating func append(_ frame: some WireFrame) {
        let payload = frame.payload
        let start = count
        precondition(start + COBS.maxEncodedCount(payload.count) + 1 <= Self.capacity, "frames longer than WireBytes.capacity")
        var written = 0
        payload.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &storage) { destination in
                let room = UnsafeMutableRawBufferPointer(rebasing: destination[start...])
                written = COBS.encode(source, into: room)
                room[written] = WireFormat.delimiter
            }
        }
        count = start + written + 1
    }

    /// Calls `body` with the wire bytes (valid only during the call).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var copy = storage
        let count = self.count
        return try Swift.withUnsafeBytes(of: &copy) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// The wire bytes as an array (tests, tools).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}
