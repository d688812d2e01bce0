import TiltCore

/// HELLO (0x01), board → host: who the board is and how it samples.
public struct HelloFrame: WireFrame {
    /// The type byte it carries on the wire: 0x01 (docs/protocol.md).
    public static let frameType = FrameType.hello

    /// The wire protocol version the firmware speaks (`WireFormat.version` = 1); body byte 0.
    public var protocolVersion: UInt8
    /// Firmware version, major part (semantic versioning); body byte 1.
    public var firmwareMajor: UInt8
    /// Firmware version, minor part; body byte 2.
    public var firmwareMinor: UInt8
    /// Firmware version, patch part; body byte 3.
    public var firmwarePatch: UInt8
    /// AFS_SEL as sent (0...3 valid); see `accelRange`.
    public var accelFullScaleSelect: UInt8
    /// FS_SEL as sent (0...3 valid); see `gyroRange`.
    public var gyroFullScaleSelect: UInt8
    /// SAMPLE frames per second the board aims at (4...1000 Hz); little-endian u16.
    public var sampleRateHz: UInt16
    /// Display width in pixels (128 for the SSD1306 module).
    public var displayWidth: UInt8
    /// Display height in pixels (64 for the SSD1306 module).
    public var displayHeight: UInt8
    /// CRC-16/CCITT-FALSE of the content tile in SSD1306 page layout.
    public var contentTileID: UInt16
    /// Bit 0: sensor answered WHO_AM_I; bit 1: display answered.
    public var status: UInt8

    /// A HELLO from its fields; version and display size default to this protocol's and a 128 × 64 panel.
    public init(
        protocolVersion: UInt8 = WireFormat.version, firmwareMajor: UInt8, firmwareMinor: UInt8, firmwarePatch: UInt8,
        accelFullScaleSelect: UInt8, gyroFullScaleSelect: UInt8, sampleRateHz: UInt16,
        displayWidth: UInt8 = 128, displayHeight: UInt8 = 64, contentTileID: UInt16, status: UInt8
    ) {
        self.protocolVersion = protocolVersion
        self.firmwareMajor = firmwareMajor
        self.firmwareMinor = firmwareMinor
        self.firmwarePatch = firmwarePatch
        self.accelFullScaleSelect = accelFullScaleSelect
        self.gyroFullScaleSelect = gyroFullScaleSelect
        self.sampleRateHz = sampleRateHz
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.contentTileID = contentTileID
        self.status = status
    }

    /// Reads the 13-byte body: version, firmware major/minor/patch, AFS_SEL, FS_SEL, rate (u16 LE), width, height, tile id (u16 LE), status.
    public init(body: UnsafeRawBufferPointer) {
        self.init(
            protocolVersion: body[0], firmwareMajor: body[1], firmwareMinor: body[2], firmwarePatch: body[3],
            accelFullScaleSelect: body[4], gyroFullScaleSelect: body[5], sampleRateHz: body.u16(6),
            displayWidth: body[8], displayHeight: body[9], contentTileID: body.u16(10), status: body[12])
    }

    /// Appends the 13-byte body in the order `init(body:)` reads it.
    public func writeBody(to payload: inout PayloadBuffer) {
        payload.append(protocolVersion)
        payload.append(firmwareMajor)
        payload.append(firmwareMinor)
        payload.append(firmwarePatch)
        payload.append(accelFullScaleSelect)
        payload.append(gyroFullScaleSelect)
        payload.appendLittleEndian(sampleRateHz)
        payload.append(displayWidth)
        payload.append(displayHeight)
        payload.appendLittleEndian(contentTileID)
        payload.append(status)
    }

    /// The accelerometer range, nil for an AFS_SEL above 3.
    public var accelRange: AccelRange? { AccelRange(rawValue: accelFullScaleSelect) }
    /// The gyroscope range, nil for an FS_SEL above 3.
    public var gyroRange: GyroRange? { GyroRange(rawValue: gyroFullScaleSelect) }
    /// HELLO status bit 0: the MPU-6050 answered WHO_AM_I (0x75) at power-on.
    public var sensorAnswered: Bool { status & 1 != 0 }
    /// HELLO status bit 1: the SSD1306 ACKed its address at power-on.
    public var displayAnswered: Bool { status & 2 != 0 }
}

/// SAMPLE (0x02), board → host: one MPU-6050 burst with sequence and 24-bit time.
/// `FrameDecoder` delivers it unwrapped as a `TimedSample`.
public struct SampleFrame: WireFrame {
    /// The type byte it carries on the wire: 0x02 (docs/protocol.md).
    public static let frameType = FrameType.sample

    /// +1 per SAMPLE sent (wraps at 256); a gap means frames were lost.
    public var sequence: UInt8
    /// Board time in µs, low 24 bits (higher bits are ignored when encoding).
    public var boardTime: UInt32
    /// The 14-byte burst from ACCEL_XOUT_H (0x3B): accel, temperature and gyro counts.
    public var raw: RawSample

    /// A SAMPLE from its fields; only the low 24 bits of `boardTime` are sent.
    @inlinable public init(sequence: UInt8, boardTime: UInt32, raw: RawSample) {
        self.sequence = sequence
        self.boardTime = boardTime
        self.raw = raw
    }

    /// Reads the 18-byte body: sequence, board time (u24 LE), then the 14 burst bytes (big-endian int16s, as the MPU-6050 sends them).
    @inlinable public init(body: UnsafeRawBufferPointer) {
        self.init(sequence: body[0], boardTime: body.u24(1), raw: RawSample(burst: body, at: 4))
    }

    /// Appends the 18-byte body in the order `init(body:)` reads it.
    @inlinable public func writeBody(to payload: inout PayloadBuffer) {
        payload.append(sequence)
        payload.appendLittleEndian24(boardTime)
        @inline(__always) func bigEndian(_ word: Int16) {
            let bits = UInt16(bitPattern: word)
            payload.append(UInt8(bits >> 8))
            payload.append(UInt8(bits & 0xFF))
        }
        bigEndian(raw.accel.x)
        bigEndian(raw.accel.y)
        bigEndian(raw.accel.z)
        bigEndian(raw.temperature)
        bigEndian(raw.gyro.x)
        bigEndian(raw.gyro.y)
        bigEndian(raw.gyro.z)
    }
}

extension SampleFrame {
    /// The SAMPLE that carries `sample`: its time's low 24 bits (the wire's
    /// `t_us`), its sequence number and counts.
    @inlinable public init(_ sample: TimedSample) {
        self.init(sequence: sample.sequence, boardTime: UInt32(truncatingIfNeeded: sample.time.micros) & 0xFF_FFFF, raw: sample.raw)
    }

    /// The sample as one frame alone tells it: its 24-bit `t_us` as the time
    /// (`FrameDecoder` unwraps it against the frames before).
    @inlinable public var timed: TimedSample {
        TimedSample(timeMicros: UInt64(boardTime & 0xFF_FFFF), sequence: sequence, raw: raw)
    }
}

/// PONG (0x03), board → host: echoes a PING's token.
public struct PongFrame: WireFrame {
    /// The type byte it carries on the wire: 0x03 (docs/protocol.md).
    public static let frameType = FrameType.pong
    /// The PING's token, echoed unchanged (little-endian u32).
    public var token: UInt32

    /// A PONG answering the PING with `token`.
    public init(token: UInt32) { self.token = token }
    /// Reads the 4-byte body: the token, little-endian.
    public init(body: UnsafeRawBufferPointer) { token = body.u32(0) }
    /// Appends the token, little-endian.
    public func writeBody(to payload: inout PayloadBuffer) { payload.appendLittleEndian(token) }
}
