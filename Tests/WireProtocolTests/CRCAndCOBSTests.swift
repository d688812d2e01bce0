import Testing
import TiltCore
@testable import WireProtocol

@Suite struct CRCAndCOBSTests {
    @Test func crcCheckValue() {
        #expect(CRC16.checksum(Array("123456789".utf8)) == 0x29B1)
    }

    @Test func crcOfPayloadWithItsCRCIsZero() {
        let payload = HelloFrame.init(
            firmwareMajor: 1, firmwareMinor: 2, firmwarePatch: 3, accelFullScaleSelect: 0, gyroFullScaleSelect: 0,
            sampleRateHz: 100, contentTileID: 0x1234, status: 1
        ).payload
        #expect(payload.withUnsafeBytes { CRC16.checksum($0) } == 0)
    }

    /// The examples of Cheshire & Baker / Wikipedia, both ways.
    @Test(arguments: [
        ([0x00], [0x01, 0x01]),
        ([0x00, 0x00], [0x01, 0x01, 0x01]),
        ([0x00, 0x11, 0x00], [0x01, 0x02, 0x11, 0x01]),
        ([0x11, 0x22, 0x00, 0x33], [0x03, 0x11, 0x22, 0x02, 0x33]),
        ([0x11, 0x22, 0x33, 0x44], [0x05, 0x11, 0x22, 0x33, 0x44]),
        ([0x11, 0x00, 0x00, 0x00], [0x02, 0x11, 0x01, 0x01, 0x01]),
        ([], [0x01]),
    ] as [([UInt8], [UInt8])])
    func cobsKnownVectors(decoded: [UInt8], encoded: [UInt8]) {
        #expect(COBS.encode(decoded) == encoded)
        #expect(COBS.decode(encoded) == decoded)
    }

    @Test func cobsLongRuns() {
        let run254 = (1...254).map { UInt8($0) }
        #expect(COBS.encode(run254) == [0xFF] + run254)
        let zeroThen254 = [0x00] + run254
        #expect(COBS.encode(zeroThen254) == [0x01, 0xFF] + run254)
        let run255 = run254 + [0xFF]
        #expect(COBS.encode(run255) == [0xFF] + run254 + [0x02, 0xFF])
        let run254ThenZero = run254 + [0x00]
        #expect(COBS.encode(run254ThenZero) == [0xFF] + run254 + [0x01, 0x01])
        for bytes in [run254, zeroThen254, run255, run254ThenZero, run254 + run254 + [0, 0, 7]] {
            let encoded = COBS.encode(bytes)
            #expect(!encoded.contains(0))
            #expect(encoded.count <= COBS.maxEncodedCount(bytes.count))
            #expect(COBS.decode(encoded) == bytes)
        }
    }

    @Test func cobsRandomRoundTrips() {
        var random = SplitMix64(seed: 1)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...600, using: &random)
            let zeroChance = [0, 2, 16, 255].randomElement(using: &random)!
            let bytes = (0..<count).map { _ -> UInt8 in
                Int.random(in: 0...255, using: &random) < zeroChance ? 0 : UInt8.random(in: 1...255, using: &random)
            }
            let encoded = COBS.encode(bytes)
            #expect(!encoded.contains(0))
            #expect(encoded.count <= COBS.maxEncodedCount(bytes.count))
            #expect(COBS.decode(encoded) == bytes)
            // The buffer API agrees with the array one.
            var buffer = [UInt8](repeating: 0xAA, count: COBS.maxEncodedCount(bytes.count))
            let written = bytes.withUnsafeBytes { source in buffer.withUnsafeMutableBytes { COBS.encode(source, into: $0) } }
            #expect(Array(buffer[0..<written]) == encoded)
        }
    }

    @Test func cobsRejectsInvalidInput() {
        #expect(COBS.decode([0x05, 0x11, 0x22]) == nil)  // code points past the end
        #expect(COBS.decode([0x03, 0x00, 0x22]) == nil)  // a zero inside
        #expect(COBS.decode([0x00]) == nil)
        // Output bounded by the destination.
        var small = [UInt8](repeating: 0, count: 2)
        let result = [UInt8]([0x04, 1, 2, 3]).withUnsafeBytes { source in
            small.withUnsafeMutableBytes { COBS.decode(source, into: $0) }
        }
        #expect(result == nil)
    }
}
