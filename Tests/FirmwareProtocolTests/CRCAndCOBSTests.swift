import FirmwareCore
import Testing

func cobsEncode(_ bytes: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0xEE, count: bytes.count + bytes.count / 254 + 1)
    let n = tilt_cobs_encode(bytes, bytes.count, &out)
    return Array(out[0..<n])
}

func cobsDecode(_ bytes: [UInt8]) -> [UInt8]? {
    var out = [UInt8](repeating: 0xEE, count: max(bytes.count, 1))
    let n = tilt_cobs_decode(bytes, bytes.count, &out)
    return n < 0 ? nil : Array(out[0..<Int(n)])
}

@Suite struct CRC16Tests {
    @Test func checkValue() {
        #expect(tilt_crc16(Array("123456789".utf8), 9) == 0x29B1)
    }

    @Test func emptyIsTheInitialValueAndAppendedCRCGivesZero() {
        #expect(tilt_crc16(nil, 0) == 0xFFFF)
        let data: [UInt8] = [0x12, 0x01, 0x02, 0x03, 0x04]
        let crc = tilt_crc16(data, data.count)
        #expect(tilt_crc16(data + [UInt8(crc >> 8), UInt8(crc & 0xFF)], data.count + 2) == 0)
    }
}

@Suite struct COBSTests {
    // The examples of Cheshire & Baker / the Wikipedia COBS article.
    @Test(arguments: [
        ([], [0x01]),
        ([0x00], [0x01, 0x01]),
        ([0x00, 0x00], [0x01, 0x01, 0x01]),
        ([0x00, 0x11, 0x00], [0x01, 0x02, 0x11, 0x01]),
        ([0x11, 0x22, 0x00, 0x33], [0x03, 0x11, 0x22, 0x02, 0x33]),
        ([0x11, 0x22, 0x33, 0x44], [0x05, 0x11, 0x22, 0x33, 0x44]),
        ([0x11, 0x00, 0x00, 0x00], [0x02, 0x11, 0x01, 0x01, 0x01]),
    ] as [([UInt8], [UInt8])])
    func vectors(plain: [UInt8], encoded: [UInt8]) {
        #expect(cobsEncode(plain) == encoded)
        #expect(cobsDecode(encoded) == plain)
    }

    @Test func longRunsSplitAt254() {
        let run = (1...254).map { UInt8($0) }
        #expect(cobsEncode(run) == [0xFF] + run + [0x01])
        #expect(cobsDecode([0xFF] + run + [0x01]) == run)
        #expect(cobsDecode([0xFF] + run) == run)
        let withZero = [0x00] + (1...255).map { UInt8($0) }
        #expect(cobsEncode(withZero) == [0x01, 0xFF] + (1...254).map { UInt8($0) } + [0x02, 0xFF])
        #expect(cobsDecode(cobsEncode(withZero)) == withZero)
    }

    @Test func malformedInputIsRejected() {
        #expect(cobsDecode([0x05, 0x11, 0x22]) == nil)  // code runs past the end
        #expect(cobsDecode([0x03, 0x11, 0x00]) == nil)  // a zero inside
        #expect(cobsDecode([0x00]) == nil)
    }

    @Test func randomRoundTripsHaveNoZeros() {
        var state: UInt64 = 7
        for length in 0..<300 {
            let bytes = (0..<length).map { _ -> UInt8 in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 59 == 0 ? 0 : state >> 33)
            }
            let encoded = cobsEncode(bytes)
            #expect(!encoded.contains(0))
            #expect(encoded.count <= length + length / 254 + 1)
            #expect(cobsDecode(encoded) == bytes)
        }
    }
}
