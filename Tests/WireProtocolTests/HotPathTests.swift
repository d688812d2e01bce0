import TiltCore
import Testing
@testable import WireProtocol

/// The decoder's pointer hot path agrees with the plain implementations.
@Suite struct HotPathTests {
    @Test func slicedCRCMatchesTiltCoreCRC16() {
        var random = SplitMix64(seed: 5)
        for count in 0...70 {
            for _ in 0..<20 {
                let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
                let sliced = bytes.withUnsafeBufferPointer {
                    FrameCRC.checksum($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: count, tables: FrameCRC.tables)
                }
                #expect(sliced == CRC16.checksum(bytes))
            }
        }
        let check = Array("123456789".utf8).withUnsafeBufferPointer { FrameCRC.checksum($0.baseAddress!, count: 9, tables: FrameCRC.tables) }
        #expect(check == 0x29B1)
    }

    @Test func copyAndPatchCOBSMatchesCOBSDecode() {
        var random = SplitMix64(seed: 6)
        var (valid, invalid) = (0, 0)
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...65, using: &random)
            // Either a valid encoding of a random payload, or random non-zero bytes.
            var run: [UInt8]
            if random.next() % 2 == 0 {
                let payload = (0..<(count - 1)).map { _ in random.next() % 4 == 0 ? 0 : UInt8.random(in: 1...255, using: &random) }
                run = COBS.encode(payload)
            } else {
                run = (0..<count).map { _ in UInt8.random(in: 1...255, using: &random) }
            }
            var out = [UInt8](repeating: 0xEE, count: 64)
            let fast = run.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBufferPointer { FrameCRC.decode(source.baseAddress!, count: run.count, into: $0.baseAddress!) }
            }
            if let reference = COBS.decode(run) {
                #expect(fast == reference.count)
                #expect(Array(out[0..<max(fast, 0)]) == reference)
                valid += 1
            } else {
                #expect(fast == -1)
                invalid += 1
            }
        }
        // Both paths were exercised many times (random non-zero bytes are
        // mostly invalid COBS; encodings always valid).
        #expect(valid > 5_000 && invalid > 1_000, "valid \(valid), invalid \(invalid)")
    }

    @Test func delimiterScanFindsTheFirstZero() {
        var random = SplitMix64(seed: 8)
        for _ in 0..<5000 {
            let count = Int.random(in: 0...40, using: &random)
            let bytes = (0..<count).map { _ in random.next() % 10 == 0 ? 0 : UInt8.random(in: 1...255, using: &random) }
            let start = count == 0 ? 0 : Int.random(in: 0...count, using: &random)
            let expected = bytes[start...].firstIndex(of: 0) ?? count
            let found = bytes.withUnsafeBufferPointer {
                FrameDecoder.delimiter(in: $0.baseAddress ?? UnsafePointer(bitPattern: 1)!, from: start, count: count)
            }
            #expect(found == expected)
        }
    }
}
