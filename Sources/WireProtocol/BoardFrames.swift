import TiltCore

/// HELLO (0x01), board → host: who the board is and how it samples.
public struct HelloFrame: WireFrame {
    public static let frameType = FrameType.hello

    public var protocolVersion: UInt8
    public var firmwareMajor: UInt8
    public var firmwareMinor: UInt8
    public var firmwarePatch: UInt8
    /// AFS_SEL as sent (0...3 valid); see `accelRange`.
    public var accelFullScaleSelect: UInt8
    /// FS_SEL as sent (0...3 valid); see `gyroRange`.
    public var gyroFullScaleSelect: UInt8
    public var sampleRateHz: UInt16
    public var displayWidth: UInt8
    public var displayHeight: UInt8
    /// CRC-16/CCITT-FALSE of the content tile in SSD1306 page layout.
    public var contentTileID: UInt16
    /// Bit 0: sensor answered WHO_AM_I; bit 1: display answered.
    public var status: UInt8

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

    public init(body: UnsafeRawBufferPointer) {
        self.init(
            protocolVersion: body[0], firmwareMajor: body[1], firmwareMinor: body[2], firmwarePatch: body[3],
            accelFullScaleSelect: body[4], gyroFullScaleSelect: body[5], sampleRateHz: body.u16(6),
            displayWidth: body[8], displayHeight: body[9], contentTileID: body.u16(10), status: body[12])
    }

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
    public var sensorAnswered: Bool { status & 1 != 0 }
    public var displayAnswered: Bool { status & 2 != 0 }
}

/// SAMPLE (0x02), board → host: one MPU-6050 burst with sequence and 24-bit time.
/// `FrameDecoder` delivers it unwrapped as a `TimedSample`.
public struct SampleFrame: WireFrame {
    public static let frameType = FrameType.sample

    public var sequence: UInt8
    /// Board time in µs, low 24 bits (higher bits are ignored when encoding).
    public var boardTime: UInt32
    public var raw: RawSample

    @inlinable public init(sequence: UInt8, boardTime: UInt32, raw: RawSample) {
        self.sequence = sequence
        self.boardTime = boardTime
        self.raw = raw
    }

    @inlinable public init(body: UnsafeRawBufferPointer) {
        self.init(sequence: body[0], boardTime: body.u24(1), raw: RawSample(burst: body, at: 4))
    }

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

/// PONG (0x03), board → host: echoes a PING's token.
public struct PongFrame: WireFrame {
    public static let frameType = FrameType.pong
    public var token: UInt32

    public init(token: UInt32) { self.token = token }
    public init(body: UnsafeRawBufferPointer) { token = body.u32(0) }
    public func writeBody(to payload: inout PayloadBuffer) { payload.appendLittleEndian(token) }
}
