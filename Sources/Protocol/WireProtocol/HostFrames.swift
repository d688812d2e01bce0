/// OFFSETS (0x10), host → board: what the board draws for one physics tick.
public struct OffsetsFrame: WireFrame {
    /// The type byte it carries on the wire: 0x10 (docs/protocol.md).
    public static let frameType = FrameType.offsets

    /// Bits of the flags byte.
    public struct Flags: OptionSet, Hashable, Sendable {
        /// The flags byte as sent (bits 0...2 defined below).
        public var rawValue: UInt8
        /// Flags from the byte as sent.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The ribbon fired on this tick.
        public static let fired = Flags(rawValue: 1 << 0)
        /// The ribbon is being pulled.
        public static let engaged = Flags(rawValue: 1 << 1)
        /// The host is paused.
        public static let paused = Flags(rawValue: 1 << 2)
    }

    /// +1 per OFFSETS sent (wraps at 256).
    public var sequence: UInt8
    /// Content column at the display's left edge, pixels.
    public var viewportX: UInt16
    /// Content row at the display's top edge, pixels.
    public var viewportY: UInt16
    /// Content column of the ribbon art's left edge, pixels.
    public var ribbonX: UInt16
    /// Content row one past the ribbon art's last row; 0 = hidden.
    public var ribbonBottom: UInt16
    /// Fired, engaged, paused.
    public var flags: Flags

    /// An OFFSETS frame from its fields.
    public init(sequence: UInt8, viewportX: UInt16, viewportY: UInt16, ribbonX: UInt16, ribbonBottom: UInt16, flags: Flags) {
        self.sequence = sequence
        self.viewportX = viewportX
        self.viewportY = viewportY
        self.ribbonX = ribbonX
        self.ribbonBottom = ribbonBottom
        self.flags = flags
    }

    /// Reads the 10-byte body: sequence, viewport x and y, ribbon x, ribbon bottom (u16 LE each), flags.
    public init(body: UnsafeRawBufferPointer) {
        self.init(
            sequence: body[0], viewportX: body.u16(1), viewportY: body.u16(3), ribbonX: body.u16(5),
            ribbonBottom: body.u16(7), flags: Flags(rawValue: body[9]))
    }

    /// Appends the 10-byte body in the order `init(body:)` reads it.
    public func writeBody(to payload: inout PayloadBuffer) {
        payload.append(sequence)
        payload.appendLittleEndian(viewportX)
        payload.appendLittleEndian(viewportY)
        payload.appendLittleEndian(ribbonX)
        payload.appendLittleEndian(ribbonBottom)
        payload.append(flags.rawValue)
    }
}

/// HOST_HELLO (0x11), host → board: asks the board to introduce itself.
public struct HostHelloFrame: WireFrame {
    /// The type byte it carries on the wire: 0x11 (docs/protocol.md).
    public static let frameType = FrameType.hostHello
    /// The host's protocol version (`WireFormat.version`); the board answers with its HELLO.
    public var protocolVersion: UInt8

    /// A HOST_HELLO for `protocolVersion` (this protocol's by default).
    public init(protocolVersion: UInt8 = WireFormat.version) { self.protocolVersion = protocolVersion }
    /// Reads the 1-byte body: the version.
    public init(body: UnsafeRawBufferPointer) { protocolVersion = body[0] }
    /// Appends the version byte.
    public func writeBody(to payload: inout PayloadBuffer) { payload.append(protocolVersion) }
}

/// PING (0x12), host → board: the board answers PONG with the same token.
public struct PingFrame: WireFrame {
    /// The type byte it carries on the wire: 0x12 (docs/protocol.md).
    public static let frameType = FrameType.ping
    /// Any value; the PONG carries it back (little-endian u32).
    public var token: UInt32

    /// A PING carrying `token`.
    public init(token: UInt32) { self.token = token }
    /// Reads the 4-byte body: the token, little-endian.
    public init(body: UnsafeRawBufferPointer) { token = body.u32(0) }
    /// Appends the token, little-endian.
    public func writeBody(to payload: inout PayloadBuffer) { payload.appendLittleEndian(token) }
}

/// CONFIGURE (0x13), host → board: sample rate and full-scale ranges.
public struct ConfigureFrame: WireFrame {
    /// The type byte it carries on the wire: 0x13 (docs/protocol.md).
    public static let frameType = FrameType.configure

    /// 4...1000 Hz; the board picks the nearest 1000 / (1 + SMPLRT_DIV).
    public var sampleRateHz: UInt16
    /// AFS_SEL to set (0...3: ±2, 4, 8, 16 g).
    public var accelFullScaleSelect: UInt8
    /// FS_SEL to set (0...3: ±250, 500, 1000, 2000 °/s).
    public var gyroFullScaleSelect: UInt8

    /// A CONFIGURE frame from its fields.
    public init(sampleRateHz: UInt16, accelFullScaleSelect: UInt8, gyroFullScaleSelect: UInt8) {
        self.sampleRateHz = sampleRateHz
        self.accelFullScaleSelect = accelFullScaleSelect
        self.gyroFullScaleSelect = gyroFullScaleSelect
    }

    /// Reads the 4-byte body: rate (u16 LE), AFS_SEL, FS_SEL.
    public init(body: UnsafeRawBufferPointer) {
        self.init(sampleRateHz: body.u16(0), accelFullScaleSelect: body[2], gyroFullScaleSelect: body[3])
    }

    /// Appends the 4-byte body in the order `init(body:)` reads it.
    public func writeBody(to payload: inout PayloadBuffer) {
        payload.appendLittleEndian(sampleRateHz)
        payload.append(accelFullScaleSelect)
        payload.append(gyroFullScaleSelect)
    }
}
