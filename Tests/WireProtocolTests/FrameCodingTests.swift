import TiltCore
import Testing
import WireProtocol

@Suite struct FrameCodingTests {
    static let frames: [Frame] = [
        .hello(hello(rateHz: 1000)),
        .hello(HelloFrame(
            protocolVersion: 2, firmwareMajor: 255, firmwareMinor: 0, firmwarePatch: 9, accelFullScaleSelect: 3,
            gyroFullScaleSelect: 7, sampleRateHz: 0xFFFF, displayWidth: 0, displayHeight: 255, contentTileID: 0, status: 0)),
        .sample(sampleFrame(0).timed),
        .sample(SampleFrame(sequence: 255, boardTime: 0xFF_FFFF, raw: RawSample(
            accel: Axes3(x: .min, y: .max, z: -1), temperature: 0, gyro: Axes3(x: 0, y: 1, z: -32768))).timed),
        .pong(PongFrame(token: 0)),
        .pong(PongFrame(token: 0xDEAD_BEEF)),
        .parts(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x98, displayAddress: 0x3D)),
        .describe(DescribeFrame()),
        .offsets(OffsetsFrame(sequence: 9, viewportX: 0, viewportY: 65535, ribbonX: 300, ribbonBottom: 0, flags: [.fired, .paused])),
        .hostHello(HostHelloFrame()),
        .ping(PingFrame(token: 0x0102_0304)),
        .configure(ConfigureFrame(sampleRateHz: 200, accelFullScaleSelect: 1, gyroFullScaleSelect: 3)),
    ]

    @Test(arguments: frames)
    func encodeDecodeRoundTrip(frame: Frame) throws {
        let wire = frame.encoded()
        #expect(wire.last == 0)
        #expect(!wire.dropLast().contains(0))
        #expect(wire.count <= WireFormat.maxEncodedCount + 1)
        let decoded = try #require(Frame.decode(wire: wire))
        #expect(decoded == .success(frame))
        // And through the streaming decoder.
        let (out, counters) = decodeAll(wire)
        #expect(counters.framesDecoded == 1)
        #expect(counters.errors == 0)
        #expect(out.count == 1)
    }

    @Test func wireSizes() {
        #expect(sampleFrame(1).encoded().count == 23)  // docs/protocol.md size budget
        #expect(PongFrame(token: 1).encoded().count == 1 + 4 + 2 + 1 + 1)
    }

    @Test func sampleTimeKeepsLow24Bits() throws {
        let frame = SampleFrame(sequence: 1, boardTime: 0xAB12_3456, raw: rawSample(1))
        let decoded = try #require(Frame.decode(wire: frame.encoded()))
        guard case .success(.sample(let sample)) = decoded else { Issue.record("not a sample"); return }
        #expect(sample.timeMicros == 0x12_3456)
    }

    @Test func parseErrors() {
        func parse(_ payload: [UInt8]) -> Result<Frame, Frame.ParseError> {
            payload.withUnsafeBytes { Frame.parse(payload: $0) }
        }
        func withCRC(_ bytes: [UInt8]) -> [UInt8] {
            let crc = CRC16.checksum(bytes)
            return bytes + [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        }
        #expect(parse([0x01, 0x02]) == .failure(.tooShort))
        #expect(parse(withCRC([0x7F, 1, 2])) == .failure(.unknownType(0x7F)))
        #expect(parse(withCRC([0x03, 1, 2, 3])) == .failure(.wrongBodyLength(.pong, 3)))
        var bad = withCRC([0x03, 1, 2, 3, 4])
        bad[2] ^= 0x10
        #expect(parse(bad) == .failure(.crcMismatch))
        #expect(parse(withCRC([0x03, 1, 2, 3, 4])) == .success(.pong(PongFrame(token: 0x0403_0201))))
    }
}
