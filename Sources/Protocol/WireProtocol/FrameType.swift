/// The frame types of protocol version 1 and their fixed body sizes
/// (docs/protocol.md, "Frames").
public enum FrameType: UInt8, CaseIterable, Hashable, Sendable {
    /// HELLO, board → host: who the board is and how it samples (13-byte body).
    case hello = 0x01
    /// SAMPLE, board → host: one sensor burst (18-byte body).
    case sample = 0x02
    /// PONG, board → host: a PING's token back (4-byte body).
    case pong = 0x03
    /// READY, board → host: about to take a new view, or fallen idle (4-byte body; only after SYNC 1).
    case ready = 0x04
    /// PARTS, board → host: the sensor and display found, and their addresses (5-byte body; only after DESCRIBE).
    case parts = 0x05
    /// OFFSETS, host → board: viewport and ribbon for one tick (10-byte body).
    case offsets = 0x10
    /// HOST_HELLO, host → board: asks for a HELLO (1-byte body).
    case hostHello = 0x11
    /// PING, host → board: a token to echo (4-byte body).
    case ping = 0x12
    /// CONFIGURE, host → board: sample rate and ranges (4-byte body).
    case configure = 0x13
    /// DRAWER, host → board: the drawer and the dragged item (11-byte body).
    case drawer = 0x14
    /// PIN, host → board: one pin slot (6-byte body).
    case pin = 0x15
    /// SYNC, host → board: 1 asks for READY before each new view, 0 stops it (1-byte body).
    case sync = 0x16
    /// DESCRIBE, host → board: asks for PARTS (1-byte body).
    case describe = 0x17
    /// DISPLAY, host → board: try, store or clear the display choice kept in EEPROM (2-byte body; answered with PARTS).
    case display = 0x18

    /// Body bytes between the type byte and the CRC.
    @inlinable public var bodyCount: Int {
        switch self {
        case .hello: 13
        case .sample: 18
        case .pong: 4
        case .ready: 4
        case .parts: 5
        case .offsets: 10
        case .hostHello: 1
        case .ping: 4
        case .configure: 4
        case .drawer: 11
        case .pin: 6
        case .sync: 1
        case .describe: 1
        case .display: 2
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
