/// The frame types of protocol version 1 and their fixed body sizes
/// (docs/protocol.md, "Frames").
public enum FrameType: UInt8, CaseIterable, Hashable, Sendable {
    case hello = 0x01
    case sample = 0x02
    case pong = 0x03
    case offsets = 0x10
    case hostHello = 0x11
    case ping = 0x12
    case configure = 0x13
    case drawer = 0x14
    case pin = 0x15

    /// Body bytes between the type byte and the CRC.
    @inlinable public var bodyCount: Int {
        switch self {
        case .hello: 13
        case .sample: 18
        case .pong: 4
        case .offsets: 10
        case .hostHello: 1
        case .ping: 4
        case .configure: 4
        case .drawer: 11
        case .pin: 6
        }
    }
}

/// Protocol-wide constants.
public enum WireFormat {
    /// The protocol version carried in HELLO and HOST_HELLO.
    public static let version: UInt8 = 1
    /// Largest payload (type + body + CRC).
    public static let maxPayloadCount = 64
    /// Largest COBS-encoded payload, delimiter excluded: one code byte more.
    public static let maxEncodedCount = maxPayloadCount + 1
    /// Type byte + CRC: the smallest possible payload.
    public static let minPayloadCount = 3
    /// The frame delimiter.
    public static let delimiter: UInt8 = 0
}
