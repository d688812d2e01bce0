/// OFFSETS (0x10), host → board: what the board draws for one physics tick.
public struct OffsetsFrame: WireFrame {
    public static let frameType = FrameType.offsets

    /// Bits of the flags byte.
    public struct Flags: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The ribbon fired on this tick.
        public static let fired = Flags(rawValue: 1 << 0)
        /// The ribbon is being pulled.
        public static let engaged = Flags(rawValue: 1 << 1)
        /// The host is paused.
        public static let paused = Flags(rawValue: 1 << 2)
    }

    public var sequence: UInt8
    public var viewportX: UInt16
    public var viewportY: UInt16
    public var ribbonX: UInt16
    /// Content row one past the ribbon art's last row; 0 = hidden.
    public var ribbonBottom: UInt16
    public var flags: Flags

    public init(sequence: UInt8, viewportX: UInt16, viewportY: UInt16, ribbonX: UInt16, ribbonBottom: UInt16, flags: Flags) {
        self.sequence = sequence
        self.viewportX = viewportX
        self.viewportY = viewportY
        self.ribbonX = ribbonX
        self.ribbonBottom = ribbonBottom
        self.flags = flags
    }

    public init(body: UnsafeRawBufferPointer) {
        self.init(
            sequence: body[0], viewportX: body.u16(1), viewportY: body.u16(3), ribbonX: body.u16(5),
            ribbonBottom: body.u16(7), flags: Flags(rawValue: body[9]))
    }

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
    public static let frameType = FrameType.hostHello
    public var protocolVersion: UInt8

    public init(protocolVersion: UInt8 = WireFormat.version) { self.protocolVersion = protocolVersion }
    public init(body: UnsafeRawBufferPointer) { protocolVersion = body[0] }
    public func writeBody(to payload: inout PayloadBuffer) { payload.append(protocolVersion) }
}

/// PING (0x12), host → board: the board answers PONG with the same token.
public struct PingFrame: WireFrame {
    public static let frameType = FrameType.ping
    public var token: UInt32

    public init(token: UInt32) { self.token = token }
    public init(body: UnsafeRawBufferPointer) { token = body.u32(0) }
    public func writeBody(to payload: inout PayloadBuffer) { payload.appendLittleEndian(token) }
}

/// CONFIGURE (0x13), host → board: sample rate and full-scale ranges.
public struct ConfigureFrame: WireFrame {
    public static let frameType = FrameType.configure

    /// 4...1000 Hz; the board picks the nearest 1000 / (1 + SMPLRT_DIV).
    public var sampleRateHz: UInt16
    public var accelFullScaleSelect: UInt8
    public var gyroFullScaleSelect: UInt8

    public init(sampleRateHz: UInt16, accelFullScaleSelect: UInt8, gyroFullScaleSelect: UInt8) {
        self.sampleRateHz = sampleRateHz
        self.accelFullScaleSelect = accelFullScaleSelect
        self.gyroFullScaleSelect = gyroFullScaleSelect
    }

    public init(body: UnsafeRawBufferPointer) {
        self.init(sampleRateHz: body.u16(0), accelFullScaleSelect: body[2], gyroFullScaleSelect: body[3])
    }

    public func writeBody(to payload: inout PayloadBuffer) {
        payload.appendLittleEndian(sampleRateHz)
        payload.append(accelFullScaleSelect)
        payload.append(gyroFullScaleSelect)
    }
}
