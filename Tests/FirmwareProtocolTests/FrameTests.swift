import FirmwareCore
import Testing

/// A wire frame built by hand from the spec: type ‖ body ‖ CRC (big-endian),
/// COBS-encoded with the test's own encoder, then 0x00.
func handFrame(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
    let payload = [type] + body
    let crc = referenceCRC(payload)
    return referenceCOBS(payload + [UInt8(crc >> 8), UInt8(crc & 0xFF)]) + [0]
}

func referenceCRC(_ bytes: [UInt8]) -> UInt16 {
    var crc: UInt16 = 0xFFFF
    for b in bytes {
        crc ^= UInt16(b) << 8
        for _ in 0..<8 { crc = crc & 0x8000 != 0 ? crc << 1 ^ 0x1021 : crc << 1 }
    }
    return crc
}

func referenceCOBS(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [], group: [UInt8] = []
    for b in bytes {
        if b == 0 { out += [UInt8(group.count + 1)] + group; group = [] } else { group.append(b) }
        // Payloads here are < 254 bytes, so no 0xFF groups.
    }
    return out + [UInt8(group.count + 1)] + group
}

func wire(_ encode: (UnsafeMutablePointer<UInt8>) -> UInt8) -> [UInt8] {
    var out = [UInt8](repeating: 0xEE, count: Int(TILT_MAX_WIRE))
    let n = out.withUnsafeMutableBufferPointer { encode($0.baseAddress!) }
    return Array(out[0..<Int(n)])
}

/// Feeds bytes to a fresh receiver; returns the events and the payloads delivered.
func receive(_ bytes: [UInt8], into rx: inout tilt_rx) -> [(tilt_rx_event, [UInt8])] {
    var results: [(tilt_rx_event, [UInt8])] = []
    for b in bytes {
        var payload: UnsafePointer<UInt8>? = nil
        var len: UInt8 = 0
        let event = tilt_rx_push(&rx, b, &payload, &len)
        if event != TILT_RX_NONE {
            results.append((event, event == TILT_RX_FRAME ? Array(UnsafeBufferPointer(start: payload, count: Int(len))) : []))
        }
    }
    return results
}

@Suite struct FrameLayoutTests {
    @Test func hello() {
        var h = tilt_hello(version: 1, fw_major: 1, fw_minor: 2, fw_patch: 3, accel_fs: 0, gyro_fs: 3,
                           sample_rate_hz: 100, display_width: 128, display_height: 64, tile_id: 0xBEEF, status: 3)
        let body: [UInt8] = [1, 1, 2, 3, 0, 3, 100, 0, 128, 64, 0xEF, 0xBE, 3]
        #expect(wire { tilt_encode_hello(&h, $0) } == handFrame(0x01, body))
        var back = tilt_hello()
        #expect(tilt_decode_hello([0x01] + body, 14, &back))
        #expect(back.tile_id == 0xBEEF && back.sample_rate_hz == 100 && back.status == 3 && back.fw_patch == 3)
    }

    @Test func sampleIs23BytesOnTheWire() {
        var s = tilt_sample()
        s.seq = 0xFE
        s.time_us = 0xAB12_3456  // only the low 24 bits go out
        let raw: [UInt8] = [0x40, 0x00, 0xFF, 0x38, 0x00, 0x00, 0xF1, 0x00, 0x00, 0x10, 0xFF, 0xF0, 0x7F, 0xFF]
        withUnsafeMutableBytes(of: &s.raw) { $0.copyBytes(from: raw) }
        let frame = wire { tilt_encode_sample(&s, $0) }
        #expect(frame == handFrame(0x02, [0xFE, 0x56, 0x34, 0x12] + raw))
        #expect(frame.count == 23)
        var back = tilt_sample()
        #expect(tilt_decode_sample([0x02, 0xFE, 0x56, 0x34, 0x12] + raw, 19, &back))
        #expect(back.seq == 0xFE && back.time_us == 0x12_3456)
        #expect(withUnsafeBytes(of: back.raw) { Array($0) } == raw)
    }

    @Test func pongAndPing() {
        #expect(wire { tilt_encode_pong(0x0403_0201, $0) } == handFrame(0x03, [1, 2, 3, 4]))
        #expect(wire { tilt_encode_ping(0xDEAD_BEEF, $0) } == handFrame(0x12, [0xEF, 0xBE, 0xAD, 0xDE]))
        var token: UInt32 = 0
        #expect(tilt_decode_ping([0x12, 0xEF, 0xBE, 0xAD, 0xDE], 5, &token) && token == 0xDEAD_BEEF)
        #expect(tilt_decode_pong([0x03, 1, 2, 3, 4], 5, &token) && token == 0x0403_0201)
    }

    @Test func offsets() {
        var o = tilt_offsets(seq: 9, viewport_x: 0x0102, viewport_y: 0x0304, ribbon_x: 0x0506, ribbon_bottom: 0x0708, flags: 5)
        let body: [UInt8] = [9, 2, 1, 4, 3, 6, 5, 8, 7, 5]
        #expect(wire { tilt_encode_offsets(&o, $0) } == handFrame(0x10, body))
        var back = tilt_offsets()
        #expect(tilt_decode_offsets([0x10] + body, 11, &back))
        #expect(back.viewport_x == 0x0102 && back.viewport_y == 0x0304 && back.ribbon_x == 0x0506
                && back.ribbon_bottom == 0x0708 && back.flags == 5 && back.seq == 9)
    }

    @Test func hostHelloAndConfigure() {
        #expect(wire { tilt_encode_host_hello(1, $0) } == handFrame(0x11, [1]))
        var c = tilt_configure(sample_rate_hz: 1000, accel_fs: 2, gyro_fs: 1)
        #expect(wire { tilt_encode_configure(&c, $0) } == handFrame(0x13, [0xE8, 0x03, 2, 1]))
        var version: UInt8 = 0
        #expect(tilt_decode_host_hello([0x11, 1], 2, &version) && version == 1)
        var back = tilt_configure()
        #expect(tilt_decode_configure([0x13, 0xE8, 0x03, 2, 1], 5, &back))
        #expect(back.sample_rate_hz == 1000 && back.accel_fs == 2 && back.gyro_fs == 1)
    }

    @Test func decodersRejectWrongTypeOrLength() {
        var o = tilt_offsets()
        #expect(!tilt_decode_offsets([0x10] + [UInt8](repeating: 0, count: 9), 10, &o))
        #expect(!tilt_decode_offsets([0x11] + [UInt8](repeating: 0, count: 10), 11, &o))
        var token: UInt32 = 0
        #expect(!tilt_decode_ping([0x12, 1, 2, 3, 4, 5], 6, &token))
        #expect(tilt_body_length(0x10) == 10 && tilt_body_length(0x02) == 18 && tilt_body_length(0x7F) == -1)
    }
}

@Suite struct ReceiverTests {
    @Test func framesSurviveGarbageAndResyncOnZero() {
        var rx = tilt_rx()
        let ping = handFrame(0x12, [1, 2, 3, 4])
        let events = receive([0x55, 0x13, 0xFF, 0x00] + ping + [0x00, 0x00] + ping, into: &rx)
        // The garbage run before the first zero is one dropped frame; empty frames are ignored.
        #expect(events.count == 3)
        #expect(events[0].0 != TILT_RX_FRAME)
        #expect(events[1].0 == TILT_RX_FRAME && events[1].1 == [0x12, 1, 2, 3, 4])
        #expect(events[2].0 == TILT_RX_FRAME && events[2].1 == [0x12, 1, 2, 3, 4])
    }

    @Test func badCRCShortAndBadCOBSAreReported() {
        var rx = tilt_rx()
        var corrupt = handFrame(0x12, [1, 2, 3, 4])
        corrupt[3] ^= 0x01
        #expect(receive(corrupt, into: &rx).map(\.0) == [TILT_RX_BAD_CRC])
        #expect(receive(referenceCOBS([0x12, 0x00]) + [0], into: &rx).map(\.0) == [TILT_RX_SHORT])
        #expect(receive([0x05, 0x01, 0x00], into: &rx).map(\.0) == [TILT_RX_BAD_COBS])
    }

    @Test func oversizeRunsAreBoundedAndDropped() {
        var rx = tilt_rx()
        let longest = handFrame(0x7E, [UInt8](repeating: 0x41, count: 61))  // 64-byte payload
        #expect(longest.count == 66)
        #expect(receive(longest, into: &rx).map(\.1.count) == [62])
        let events = receive([UInt8](repeating: 0x41, count: 5000) + [0] + handFrame(0x11, [1]), into: &rx)
        #expect(events.map(\.0) == [TILT_RX_OVERSIZE, TILT_RX_FRAME])
        #expect(rx.len == 0)
    }
}

@Suite struct ReceiverRobustnessTests {
    /// Random noise (about one byte in eight a zero) mixed with valid and
    /// corrupted frames: the receiver's buffer stays bounded and every intact
    /// frame that follows a zero is delivered, whatever came before it.
    @Test func noiseAndCorruptionNeverConfuseTheReceiver() {
        var rx = tilt_rx()
        var state: UInt64 = 0xF00D
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        var delivered = 0, expected = 0
        for round in 0..<3000 {
            var bytes: [UInt8] = (0..<Int(next() % 90)).map { _ in next() % 8 == 0 ? 0 : UInt8(truncatingIfNeeded: next()) }
            let token = UInt32(truncatingIfNeeded: next())
            var frame = handFrame(0x12, [UInt8(token & 0xFF), UInt8(token >> 8 & 0xFF), UInt8(token >> 16 & 0xFF), UInt8(token >> 24)])
            let corrupt = round % 3 == 0
            if corrupt { frame[Int(next()) % (frame.count - 1)] ^= UInt8(1 << (next() % 8)) }
            bytes += [0] + frame  // a zero first: the frame starts in sync
            for b in bytes {
                var payload: UnsafePointer<UInt8>? = nil
                var len: UInt8 = 0
                let event = tilt_rx_push(&rx, b, &payload, &len)
                #expect(rx.len <= TILT_MAX_ENCODED)
                var t: UInt32 = 0
                if event == TILT_RX_FRAME, tilt_decode_ping(payload, len, &t), t == token, !corrupt { delivered += 1 }
            }
            if !corrupt { expected += 1 }
        }
        #expect(expected > 1900)
        #expect(delivered == expected)
    }
}
