import TiltCore
import Testing
import WireProtocol

/// A long stream of SAMPLE frames with injected damage, and what the decoder
/// can be held to.
///
/// What is provable, and asserted:
/// 1. Every "intact" frame comes out exactly once, in order. A frame is intact
///    when its own encoded bytes and its delimiter arrive unchanged with nothing
///    inserted among them. What precedes it does not matter: garbage inserted
///    before it, or a lost or flipped delimiter of the frame before, leaves it
///    at the end of a damaged run, where the decoder looks for it.
/// 2. No delivered sample is wrong beyond the CRC's false-accept rate: a
///    damaged run (or a candidate frame inside one) that is valid COBS of the
///    right length passes a 16-bit CRC with probability 2^-16, so the expected
///    number of wrong frames, and of "unknown type" runs (which also passed a
///    CRC), is at most (CRC checks on damaged bytes) / 65536. Each damaged run
///    costs one CRC check plus at most 10 candidate checks that must also match
///    a type byte (1/256), so this is below (crcErrors + framingErrors +
///    oversizeFrames) × 2 / 65536; the test allows 3 + 4 × that.
/// 3. Each non-empty run between delimiters ends in exactly one counter, and a
///    damaged run adds up to two recovered frames, so framesDecoded −
///    recoveredFrames + errors equals the number of such runs in the damaged
///    bytes, counted here independently.
/// 4. When nothing wrong was delivered: samplesDecoded + lostFrames equals the
///    frames sent, duplicates are 0, and every sample carries its exact board
///    time (unwrapping survives every gap). This needs the HELLO (rate known)
///    and the last frame intact, which the test guarantees; gaps of 256+ are
///    recovered from the time.
@Suite struct CorruptionTests {
    static let frameCount = 20_000
    static let periodMicros = 2000  // 500 Hz, as the HELLO says

    struct DamagedStream {
        var bytes: [UInt8] = []
        /// Hit by damage: its bytes, its delimiter, or an insertion among them.
        var touched: [Bool]
        var events = 0
    }

    static func damagedStream(rate: Double, seed: UInt64) -> DamagedStream {
        var random = SplitMix64(seed: seed)
        var stream = DamagedStream(touched: [Bool](repeating: false, count: frameCount))
        hello(rateHz: 500).encode(into: &stream.bytes)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func garbageByte() -> UInt8 { random.next() % 8 == 0 ? 0 : UInt8(truncatingIfNeeded: random.next()) }
        for index in 0..<frameCount {
            let wire = sampleFrame(index, periodMicros: periodMicros).encoded()
            let protected = index == frameCount - 1  // so the last frame surely arrives
            for (position, byte) in wire.enumerated() {
                if protected || unit() >= rate {
                    stream.bytes.append(byte)
                    continue
                }
                stream.events += 1
                // Insertions go before this byte: before the first one they are
                // outside the frame (after the previous delimiter).
                switch random.next() % 4 {
                case 0:  // bit flip
                    stream.bytes.append(byte ^ UInt8(1 << (random.next() % 8)))
                    stream.touched[index] = true
                case 1:  // inserted byte
                    stream.bytes.append(garbageByte())
                    stream.bytes.append(byte)
                    if position > 0 { stream.touched[index] = true }
                case 2:  // deleted byte
                    stream.touched[index] = true
                default:  // garbage run of 1...40 bytes
                    for _ in 0..<(1 + Int(random.next() % 40)) { stream.bytes.append(garbageByte()) }
                    stream.bytes.append(byte)
                    if position > 0 { stream.touched[index] = true }
                }
            }
        }
        return stream
    }

    @Test(arguments: [(1e-4, 11), (1e-3, 12), (1e-2, 13), (1e-1, 14)] as [(Double, UInt64)])
    func damagedStreamKeepsEveryIntactFrame(rate: Double, seed: UInt64) {
        let damaged = Self.damagedStream(rate: rate, seed: seed)
        var random = SplitMix64(seed: seed &* 31)
        let chunks = (0..<1000).map { _ in Int(random.next() % 200) + 1 }
        let (frames, counters) = decodeAll(damaged.bytes, chunks: chunks)

        // Chunking never matters.
        let whole = decodeAll(damaged.bytes)
        #expect(whole.frames == frames)
        #expect(whole.counters == counters)

        // Sort delivered samples into genuine (equal to what was sent) and wrong.
        var genuine: [Int] = []
        var wrong = 0
        var wrongTime = 0
        for sample in frames.compactMap(\.sample) {
            let index = frameIndex(of: sample.raw)
            if index < Self.frameCount, sample.raw == rawSample(index), sample.sequence == UInt8(truncatingIfNeeded: index) {
                genuine.append(index)
                if sample.timeMicros != UInt64(index * Self.periodMicros) { wrongTime += 1 }
            } else {
                wrong += 1
            }
        }

        // 1. Untouched frames: exactly once, in order.
        #expect(zip(genuine, genuine.dropFirst()).allSatisfy { $0 < $1 }, "genuine frames out of order or repeated")
        let delivered = Set(genuine)
        let intact = damaged.touched.indices.filter { !damaged.touched[$0] }
        let missing = intact.filter { !delivered.contains($0) }
        #expect(missing.isEmpty, "intact frames not delivered: \(missing.prefix(10))")
        if rate >= 1e-3 { #expect(damaged.events > 0) }  // the damage really happened

        // 2. Wrong frames within the CRC's false-accept bound.
        let bound = 3 + 4 * 2 * Int(counters.crcErrors + counters.framingErrors + counters.oversizeFrames) / 65536
        #expect(wrong + Int(counters.unknownTypes) <= bound, "wrong \(wrong), unknown types \(counters.unknownTypes), bound \(bound)")

        // 3. One counter per non-empty run.
        var runs: UInt64 = 0
        var length = 0
        for byte in damaged.bytes {
            if byte == 0 {
                if length > 0 { runs += 1 }
                length = 0
            } else {
                length += 1
            }
        }
        #expect(counters.runs == runs)
        #expect(counters.framesDecoded == UInt64(frames.count))
        #expect(counters.samplesDecoded == UInt64(genuine.count + wrong))
        #expect(counters.recoveredFrames <= 2 * (counters.errors + counters.partialAtJoin))

        // 4. Exact loss accounting when no false accept disturbed the tracking.
        if wrong == 0 {
            #expect(counters.samplesDecoded + counters.lostFrames == UInt64(Self.frameCount))
            #expect(counters.duplicates == 0)
            #expect(wrongTime == 0)
            #expect(counters.lostFrames <= UInt64(damaged.touched.filter { $0 }.count))
        }
        print("rate \(rate): \(damaged.events) events, \(damaged.touched.filter { $0 }.count) frames touched, "
            + "\(counters.samplesDecoded) decoded, \(counters.lostFrames) lost, \(wrong) wrong, "
            + "crc \(counters.crcErrors), framing \(counters.framingErrors), oversize \(counters.oversizeFrames), "
            + "unknown \(counters.unknownTypes), recovered \(counters.recoveredFrames)")
    }

    /// A burst of damage wider than 256 frames: the loss is still counted exactly
    /// through the time difference.
    @Test func longOutageIsCountedThroughTime() {
        var stream: [UInt8] = []
        hello(rateHz: 500).encode(into: &stream)
        for index in 0..<2000 {
            var payload = sampleFrame(index).payload.withUnsafeBytes { Array($0) }
            if (500..<1100).contains(index) { payload[payload.count - 1] ^= 0x40 }  // 600 frames fail their CRC
            stream += COBS.encode(payload) + [0]
        }
        let (frames, counters) = decodeAll(stream)
        #expect(counters.crcErrors == 600)
        #expect(counters.lostFrames == 600)
        #expect(counters.samplesDecoded == 1400)
        #expect(frames.compactMap(\.sample).allSatisfy { $0.timeMicros == UInt64(frameIndex(of: $0.raw) * 2000) })
    }
}
