import Foundation
import TiltCore
import Testing
import WireProtocol

/// The byte-exact examples of docs/protocol.md, checked both ways: the encoder
/// produces the documented bytes, and the documented bytes decode to the frame.
@Suite struct ProtocolExamplesTests {
    /// Name (as the `### ` heading in docs/protocol.md) and frame.
    static let examples: [(String, Frame)] = [
        ("HELLO", .hello(HelloFrame(
            firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, accelFullScaleSelect: 0, gyroFullScaleSelect: 0,
            sampleRateHz: 100, contentTileID: 0xBEEF, status: 3))),
        ("SAMPLE", .sample(SampleFrame(sequence: 7, boardTime: 0x12_3456, raw: RawSample(
            accel: Axes3(x: 0, y: -256, z: 16384), temperature: -1600, gyro: Axes3(x: 1, y: -1, z: 0))).timed)),
        ("PONG", .pong(PongFrame(token: 0xDEAD_BEEF))),
        ("READY", .ready(ReadyFrame(boardTime: 0x12_3456, flags: 0))),
        ("PARTS", .parts(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x98, displayAddress: 0x3D))),
        ("OFFSETS", .offsets(OffsetsFrame(
            sequence: 1, viewportX: 100, viewportY: 200, ribbonX: 64, ribbonBottom: 0, flags: [.engaged]))),
        ("HOST_HELLO", .hostHello(HostHelloFrame(protocolVersion: 1))),
        ("PING", .ping(PingFrame(token: 1))),
        ("CONFIGURE", .configure(ConfigureFrame(sampleRateHz: 200, accelFullScaleSelect: 1, gyroFullScaleSelect: 0))),
        ("DRAWER", .drawer(DrawerFrame(height: 22, shown: 22, scroll: -20, current: 1, dragItem: 1, dragLeft: 46, dragTop: 31, pinCount: 3))),
        ("PIN", .pin(PinFrame(slot: 2, item: 3, x: 300, y: 140))),
        ("SYNC", .sync(SyncFrame(enabled: true))),
        ("DESCRIBE", .describe(DescribeFrame())),
        ("DISPLAY", .display(DisplayFrame(.store, kind: 1))),
    ]

    /// The documented `payload` and `wire` hex lines per example heading.
    static func documented() throws -> [String: (payload: [UInt8], wire: [UInt8])] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        guard let section = text.range(of: "## Byte-exact examples") else { return [:] }
        var result: [String: (payload: [UInt8], wire: [UInt8])] = [:]
        var name = ""
        var payload: [UInt8]?
        for line in text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { break }
            if line.hasPrefix("### ") {
                name = String(line.dropFirst(4).prefix { $0 != " " })
            } else if line.hasPrefix("payload ") {
                payload = bytes(fromHex: line.dropFirst(8))
            } else if line.hasPrefix("wire "), let payload, let wire = bytes(fromHex: line.dropFirst(5)) {
                result[name] = (payload, wire)
            }
        }
        return result
    }

    @Test(arguments: examples.map(\.0))
    func documentedBytesMatchBothWays(name: String) throws {
        let frame = try #require(Self.examples.first { $0.0 == name }?.1)
        let payload = try #require(COBS.decode(Array(frame.encoded().dropLast())))
        // On failure the message gives the lines to paste into docs/protocol.md.
        let expected = "### \(name)\n```\npayload \(hex(payload))\nwire    \(hex(frame.encoded()))\n```"
        let documented = try #require(try Self.documented()[name], "docs/protocol.md lacks:\n\(expected)")
        #expect(frame.encoded() == documented.wire, "encoder gives:\n\(expected)")
        #expect(COBS.decode(Array(documented.wire.dropLast())) == documented.payload)
        #expect(Frame.decode(wire: documented.wire) == .success(frame))
        #expect(CRC16.checksum(documented.payload) == 0)
    }

    @Test func everyFrameTypeHasAnExample() {
        let types = Set(Self.examples.map { $0.1.encoded() }.compactMap { wire -> UInt8? in COBS.decode(Array(wire.dropLast()))?.first })
        #expect(types == Set(FrameType.allCases.map(\.rawValue)))
    }
}
