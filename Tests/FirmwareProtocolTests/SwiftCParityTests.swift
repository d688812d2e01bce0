import FirmwareCore
import Foundation
import Testing
import TiltCore
import WireProtocol

/// The firmware's C protocol code against the host's Swift code: the byte-exact
/// examples of docs/protocol.md through the C receiver and encoders, and many
/// random frames of every type encoded by one side and decoded by the other.
@Suite struct SwiftCParityTests {
    /// The `wire` lines of docs/protocol.md's "Byte-exact examples", by heading.
    static func documentedWires() throws -> [String: [UInt8]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        guard let section = text.range(of: "## Byte-exact examples") else { return [:] }
        var wires: [String: [UInt8]] = [:]
        var name = ""
        for line in text[section.upperBound...].split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            if line.hasPrefix("### ") { name = String(line.dropFirst(4).prefix { $0 != " " }) }
            if line.hasPrefix("wire ") {
                wires[name] = line.dropFirst(5).split(separator: " ").compactMap { UInt8($0, radix: 16) }
            }
        }
        return wires
    }

    @Test func documentedExamplesPassTheCReceiverAndReEncodeIdentically() throws {
        let wires = try Self.documentedWires()
        // One per frame type in docs/protocol.md's tables.
        #expect(Set(wires.keys) == ["HELLO", "SAMPLE", "PONG", "READY", "PARTS", "OFFSETS", "HOST_HELLO", "PING",
                                    "CONFIGURE", "DRAWER", "PIN", "SYNC", "DESCRIBE", "DISPLAY"])
        for (name, wire) in wires {
            var rx = tilt_rx()
            let events = receive(wire, into: &rx)
            let frames = events.filter { $0.0 == TILT_RX_FRAME }
            try #require(frames.count == 1, "\(name): the C receiver rejects the documented bytes")
            #expect(reencode(payload: frames[0].1) == wire, "\(name)")
        }
    }

    @Test func bothSidesKnowTheSameTypesAndBodyLengths() {
        for byte in 0...255 {
            let swift = FrameType(rawValue: UInt8(byte)).map { Int32($0.bodyCount) } ?? -1
            #expect(tilt_body_length(UInt8(byte)) == swift, "type 0x\(String(byte, radix: 16))")
        }
    }

    @Test func randomFramesOfEveryTypeAgreeBothWays() {
        var rng = SplitMix64(seed: 0xC0FFEE)
        for _ in 0..<2_000 {
            let frame = Self.randomFrame(&rng)
            let swiftWire = frame.encoded()
            // Swift → C: the C receiver takes it, and the C encoder gives the same bytes back.
            var rx = tilt_rx()
            let delivered = receive(swiftWire, into: &rx).filter { $0.0 == TILT_RX_FRAME }
            #expect(delivered.count == 1)
            guard let payload = delivered.first?.1 else { continue }
            let cWire = reencode(payload: payload)
            #expect(cWire == swiftWire, "\(frame)")
            // C → Swift: the Swift decoder reads the C bytes as the same frame.
            if let cWire { #expect(Frame.decode(wire: cWire) == .success(frame)) }
        }
    }

    /// Decodes a payload (as the C receiver delivers it: type + body) with the C
    /// decoder for its type and encodes it again with the C encoder.
    func reencode(payload: [UInt8]) -> [UInt8]? {
        payload.withUnsafeBufferPointer { p -> [UInt8]? in
            let base = p.baseAddress!
            let length = UInt8(p.count)
            switch Int32(payload[0]) {
            case Int32(TILT_HELLO.rawValue):
                var hello = tilt_hello()
                guard tilt_decode_hello(base, length, &hello) else { return nil }
                return wire { tilt_encode_hello(&hello, $0) }
            case Int32(TILT_SAMPLE.rawValue):
                var sample = tilt_sample()
                guard tilt_decode_sample(base, length, &sample) else { return nil }
                return wire { tilt_encode_sample(&sample, $0) }
            case Int32(TILT_PONG.rawValue):
                var token: UInt32 = 0
                guard tilt_decode_pong(base, length, &token) else { return nil }
                return wire { tilt_encode_pong(token, $0) }
            case Int32(TILT_READY.rawValue):
                var time: UInt32 = 0
                var flags: UInt8 = 0
                guard tilt_decode_ready(base, length, &time, &flags) else { return nil }
                return wire { tilt_encode_ready(time, flags, $0) }
            case Int32(TILT_PARTS.rawValue):
                var parts = tilt_parts()
                guard tilt_decode_parts(base, length, &parts) else { return nil }
                return wire { tilt_encode_parts(&parts, $0) }
            case Int32(TILT_DESCRIBE.rawValue):
                guard tilt_decode_describe(base, length) else { return nil }
                return wire { tilt_encode_describe($0) }
            case Int32(TILT_DISPLAY.rawValue):
                var display = tilt_display_frame()
                guard tilt_decode_display(base, length, &display) else { return nil }
                return wire { tilt_encode_display(&display, $0) }
            case Int32(TILT_SYNC.rawValue):
                var mode: UInt8 = 0
                guard tilt_decode_sync(base, length, &mode) else { return nil }
                return wire { tilt_encode_sync(mode, $0) }
            case Int32(TILT_OFFSETS.rawValue):
                var offsets = tilt_offsets()
                guard tilt_decode_offsets(base, length, &offsets) else { return nil }
                return wire { tilt_encode_offsets(&offsets, $0) }
            case Int32(TILT_HOST_HELLO.rawValue):
                var version: UInt8 = 0
                guard tilt_decode_host_hello(base, length, &version) else { return nil }
                return wire { tilt_encode_host_hello(version, $0) }
            case Int32(TILT_PING.rawValue):
                var token: UInt32 = 0
                guard tilt_decode_ping(base, length, &token) else { return nil }
                return wire { tilt_encode_ping(token, $0) }
            case Int32(TILT_CONFIGURE.rawValue):
                var configure = tilt_configure()
                guard tilt_decode_configure(base, length, &configure) else { return nil }
                return wire { tilt_encode_configure(&configure, $0) }
            case Int32(TILT_DRAWER.rawValue):
                var drawer = tilt_drawer()
                guard tilt_decode_drawer(base, length, &drawer) else { return nil }
                return wire { tilt_encode_drawer(&drawer, $0) }
            case Int32(TILT_PIN.rawValue):
                var pin = tilt_pin_frame()
                guard tilt_decode_pin(base, length, &pin) else { return nil }
                return wire { tilt_encode_pin(&pin, $0) }
            default:
                return nil
            }
        }
    }

    static func randomFrame(_ rng: inout SplitMix64) -> Frame {
        func u8() -> UInt8 { UInt8(truncatingIfNeeded: rng.next()) }
        func u16() -> UInt16 { UInt16(truncatingIfNeeded: rng.next()) }
        func u32() -> UInt32 { UInt32(truncatingIfNeeded: rng.next()) }
        func i16() -> Int16 { Int16(truncatingIfNeeded: rng.next()) }
        switch rng.next() % 14 {
        case 0:
            return .hello(HelloFrame(
                protocolVersion: u8(), firmwareMajor: u8(), firmwareMinor: u8(), firmwarePatch: u8(),
                accelFullScaleSelect: u8(), gyroFullScaleSelect: u8(), sampleRateHz: u16(),
                displayWidth: u8(), displayHeight: u8(), contentTileID: u16(), status: u8()))
        case 1:
            return .sample(SampleFrame(sequence: u8(), boardTime: u32() & 0xFF_FFFF, raw: RawSample(
                accel: Axes3(x: i16(), y: i16(), z: i16()), temperature: i16(), gyro: Axes3(x: i16(), y: i16(), z: i16()))).timed)
        case 2: return .pong(PongFrame(token: u32()))
        case 3:
            return .offsets(OffsetsFrame(sequence: u8(), viewportX: u16(), viewportY: u16(), ribbonX: u16(),
                                         ribbonBottom: u16(), flags: OffsetsFrame.Flags(rawValue: u8())))
        case 4: return .hostHello(HostHelloFrame(protocolVersion: u8()))
        case 5: return .ping(PingFrame(token: u32()))
        case 6:
            return .drawer(DrawerFrame(height: u8(), shown: u8(), scroll: i16(), current: u8(), dragItem: u8(),
                                       dragLeft: i16(), dragTop: i16(), pinCount: u8()))
        case 7: return .pin(PinFrame(slot: u8(), item: u8(), x: u16(), y: u16()))
        case 8: return .ready(ReadyFrame(boardTime: u32() & 0xFF_FFFF, flags: u8()))
        case 9: return .sync(SyncFrame(mode: u8()))
        case 10:
            return .parts(PartsFrame(sensorAddress: u8(), sensorWhoAmI: u8(), displayAddress: u8(), displayKind: u8(), flags: u8()))
        case 11: return .describe(DescribeFrame())  // the board writes its byte as zero
        case 12: return .display(DisplayFrame(operation: u8(), kind: u8()))
        default: return .configure(ConfigureFrame(sampleRateHz: u16(), accelFullScaleSelect: u8(), gyroFullScaleSelect: u8()))
        }
    }
}
