/// READY (0x04), board → host: frame sync (docs/protocol.md, "Frame sync").
/// The board is about to latch a new view (the frame on the bus ends at
/// `boardTime`), or it fell idle; sent only to a host that asked with SYNC 1.
public struct ReadyFrame: WireFrame {
    /// The type byte it carries on the wire: 0x04 (docs/protocol.md).
    public static let frameType = FrameType.ready
    /// Bit 0 of the flags byte: idle (the screen shows the latest view the board has).
    public static let idleFlag: UInt8 = 0x01

    /// Board time (µs, low 24 bits, the SAMPLE clock) at which the board expects to take its next view.
    public var boardTime: UInt32
    /// The flags byte as sent (bit 0: idle; others zero).
    public var flags: UInt8

    /// A READY from its fields; `boardTime` is cut to 24 bits on the wire.
    public init(boardTime: UInt32, flags: UInt8) {
        self.boardTime = boardTime & 0xFF_FFFF
        self.flags = flags
    }
    /// True when the board has fallen idle: a changed view is drawn as soon as it arrives.
    public var idle: Bool { flags & Self.idleFlag != 0 }
    /// Reads the 4-byte body: board time (u24 LE), flags.
    public init(body: UnsafeRawBufferPointer) { self.init(boardTime: body.u24(0), flags: body[3]) }
    /// Appends board time (u24 LE) and flags.
    public func writeBody(to payload: inout PayloadBuffer) {
        payload.appendLittleEndian24(boardTime)
        payload.append(flags)
    }
}

/// SYNC (0x16), host → board: switches READY on (1) or off (0); off after every reset and HELLO.
public struct SyncFrame: WireFrame {
    /// The type byte it carries on the wire: 0x16 (docs/protocol.md).
    public static let frameType = FrameType.sync
    /// The byte as sent: 1 asks for READY before each new view, 0 stops it.
    public var mode: UInt8

    /// A SYNC with the byte `mode` (1 on, 0 off).
    public init(mode: UInt8) { self.mode = mode }
    /// A SYNC switching READY on or off.
    public init(enabled: Bool) { mode = enabled ? 1 : 0 }
    /// True when the frame asks for READY (the board treats any non-zero byte as on).
    public var enabled: Bool { mode != 0 }
    /// Reads the 1-byte body.
    public init(body: UnsafeRawBufferPointer) { mode = body[0] }
    /// Appends the mode byte.
    public func writeBody(to payload: inout PayloadBuffer) { payload.append(mode) }
}
