import TiltCore
import Testing
import WireProtocol

@Suite struct FrameDecoderTests {
    /// A mixed stream: HELLO, samples, other frames, idle delimiters, garbage.
    static func mixedStream() -> [UInt8] {
        var stream: [UInt8] = [0, 0]
        hello().encode(into: &stream)
        for index in 0..<300 {
            sampleFrame(index).encode(into: &stream)
            if index % 50 == 7 { PongFrame(token: UInt32(index)).encode(into: &stream) }
            if index % 60 == 9 { stream += [0x41, 0x42, 0x43, 0x00] }  // garbage run
            if index % 70 == 3 { stream += [0x00] }  // idle delimiter
        }
        OffsetsFrame(sequence: 3, viewportX: 1, viewportY: 2, ribbonX: 3, ribbonBottom: 4, flags: []).encode(into: &stream)
        return stream
    }

    @Test(arguments: [[1], [2], [3], [7], [22, 23, 24], [65, 66, 67], [1, 100, 2, 5]])
    func chunkingGivesIdenticalResults(chunks: [Int]) {
        let stream = Self.mixedStream()
        let whole = decodeAll(stream)
        let chunked = decodeAll(stream, chunks: chunks)
        #expect(chunked.frames == whole.frames)
        #expect(chunked.counters == whole.counters)
        #expect(whole.counters.samplesDecoded == 300)
        #expect(whole.counters.framesDecoded == 1 + 300 + 6 + 1)
        #expect(whole.counters.framingErrors == 5)  // "ABC": bad COBS (code 0x41 past the end)
        #expect(whole.counters.lostFrames == 0)
    }

    @Test func randomChunkingGivesIdenticalResults() {
        let stream = Self.mixedStream()
        let whole = decodeAll(stream)
        var random = SplitMix64(seed: 7)
        for _ in 0..<20 {
            let chunks = (0..<50).map { _ in Int.random(in: 1...90, using: &random) }
            let chunked = decodeAll(stream, chunks: chunks)
            #expect(chunked.frames == whole.frames)
            #expect(chunked.counters == whole.counters)
        }
    }

    @Test func samplesComeOutWithUnwrappedTime() {
        // 10 000 samples at 1 kHz: board time wraps its 24 bits (16.78 s) never; use a
        // 5 ms period so it wraps three times.
        var stream: [UInt8] = []
        hello(rateHz: 200).encode(into: &stream)
        for index in 0..<10_000 { sampleFrame(index, periodMicros: 5000).encode(into: &stream) }
        let (frames, counters) = decodeAll(stream)
        let samples = frames.compactMap(\.sample)
        #expect(samples.count == 10_000)
        #expect(samples.enumerated().allSatisfy { $0.element.timeMicros == UInt64($0.offset * 5000) })
        #expect(samples.enumerated().allSatisfy { $0.element.raw == rawSample($0.offset) && $0.element.sequence == UInt8(truncatingIfNeeded: $0.offset) })
        #expect(counters.lostFrames == 0 && counters.duplicates == 0)
    }

    @Test(arguments: [1, 2, 100, 254, 255, 256, 257, 511, 512, 1000, 5000])
    func gapsAreCountedExactly(gap: Int) {
        // Rate known from HELLO: gaps of 256 and more are seen through the time.
        var stream: [UInt8] = []
        hello(rateHz: 500).encode(into: &stream)
        var sent = 0
        for index in 0..<(20 + gap + 20) where !(20..<(20 + gap)).contains(index) {
            sampleFrame(index).encode(into: &stream)
            sent += 1
        }
        let (frames, counters) = decodeAll(stream)
        #expect(counters.lostFrames == UInt64(gap))
        #expect(counters.duplicates == 0)
        #expect(frames.compactMap(\.sample).last?.timeMicros == UInt64((20 + gap + 19) * 2000))
    }

    @Test func withoutRateGapsAreCountedModulo256() {
        var stream: [UInt8] = []
        for index in [0, 1, 5, 5, 261, 262] { sampleFrame(index).encode(into: &stream) }
        let (_, counters) = decodeAll(stream)
        // 1→5: 3 lost; 5→5: duplicate; 5→261: same sequence, seen as a duplicate.
        #expect(counters.lostFrames == 3)
        #expect(counters.duplicates == 2)
    }

    @Test func sequenceWrapsWithoutLoss() {
        var stream: [UInt8] = []
        for index in 250..<262 { sampleFrame(index).encode(into: &stream) }
        let (frames, counters) = decodeAll(stream)
        #expect(frames.count == 12)
        #expect(counters.lostFrames == 0 && counters.duplicates == 0)
    }

    @Test func helloRestartsSequenceAndTime() {
        var stream: [UInt8] = []
        hello().encode(into: &stream)
        for index in 0..<10 { sampleFrame(index).encode(into: &stream) }
        hello().encode(into: &stream)
        // The board restarted; its first three samples were lost.
        for index in 3..<6 { sampleFrame(index, periodMicros: 1000).encode(into: &stream) }
        let (frames, counters) = decodeAll(stream)
        #expect(counters.lostFrames == 3)
        #expect(counters.duplicates == 0)
        #expect(frames.compactMap(\.sample).suffix(3).map(\.timeMicros) == [3000, 4000, 5000])
    }

    @Test func firstSampleBeforeAnyHelloCountsNothing() {
        var stream: [UInt8] = []
        for index in 40..<45 { sampleFrame(index).encode(into: &stream) }
        let (frames, counters) = decodeAll(stream)
        #expect(frames.count == 5 && counters.lostFrames == 0)
        #expect(frames.first?.sample?.timeMicros == 80_000)
    }

    @Test func errorsAreCountedOnePerRun() {
        var stream: [UInt8] = [0x00]  // in sync: the next byte starts a frame
        var crcBroken = PongFrame(token: 5).encoded()
        crcBroken[2] ^= 0x01
        stream += crcBroken  // crc
        stream += [0x01, 0x00]  // payload of 0 bytes: framing (too short)
        stream += [0x09, 1, 2, 0x00]  // bad COBS: framing
        stream += [UInt8](repeating: 0x33, count: 66) + [0x00]  // oversize
        stream += [UInt8](repeating: 0x33, count: 500) + [0x00]  // oversize
        var unknown = PingFrame(token: 5).payload.withUnsafeBytes { Array($0) }
        unknown[0] = 0x7E
        let crc = CRC16.checksum(unknown.dropLast(2))
        unknown[unknown.count - 2] = UInt8(crc >> 8)
        unknown[unknown.count - 1] = UInt8(crc & 0xFF)
        stream += COBS.encode(unknown) + [0x00]  // unknown type
        var wrongLength = [UInt8(0x03), 1, 2, 3]
        let crc2 = CRC16.checksum(wrongLength)
        wrongLength += [UInt8(crc2 >> 8), UInt8(crc2 & 0xFF)]
        stream += COBS.encode(wrongLength) + [0x00]  // framing (body length)
        stream += [0x00, 0x00]  // idle
        PongFrame(token: 6).encode(into: &stream)  // intact right after all of it
        for chunks in [[Int](), [1], [5], [64]] {
            let (frames, counters) = decodeAll(stream, chunks: chunks)
            #expect(frames == [.pong(PongFrame(token: 6))])
            #expect(counters.crcErrors == 1)
            #expect(counters.framingErrors == 3)
            #expect(counters.oversizeFrames == 2)
            #expect(counters.unknownTypes == 1)
            #expect(counters.framesDecoded == 1)
        }
    }

    @Test func maximalRunIsNotOversize() {
        // 65 encoded bytes (a 64-byte payload) is the longest legal run: judged, not dropped.
        let run = [UInt8](repeating: 0x41, count: 1) + [UInt8](repeating: 0x20, count: 64)
        var decoder = FrameDecoder()
        _ = decodeAll([0] + run + [0], chunks: [10], decoder: &decoder)
        #expect(decoder.counters.oversizeFrames == 0)
        #expect(decoder.counters.crcErrors == 1)  // valid COBS of 64 bytes, checked up to its CRC
        _ = decodeAll([0x20] + run + [0], chunks: [10], decoder: &decoder)
        #expect(decoder.counters.oversizeFrames == 1)
    }

    @Test func partialFrameWaitsForItsDelimiter() {
        let wire = sampleFrame(1).encoded()
        var decoder = FrameDecoder()
        #expect(decodeAll(Array(wire.dropLast()), decoder: &decoder).isEmpty)
        #expect(decoder.pendingByteCount == wire.count - 1)
        #expect(decodeAll([0], decoder: &decoder).count == 1)
        #expect(decoder.pendingByteCount == 0)
    }

    @Test func genericSequenceFeed() {
        let stream = Self.mixedStream()
        var decoder = FrameDecoder()
        var count = 0
        decoder.feed(stream.lazy.map { $0 }) { _ in count += 1 }  // not contiguous
        #expect(count == 308)
        #expect(decoder.counters == decodeAll(stream).counters)
    }

    /// Intact frames are decoded whatever precedes them.
    @Test(arguments: [[Int](), [1], [3], [22], [64]])
    func intactFramesAfterDamageAreRecovered(chunks: [Int]) {
        let a = sampleFrame(0).encoded()
        let b = sampleFrame(1).encoded()
        let c = sampleFrame(2).encoded()
        let d = sampleFrame(3).encoded()
        let e = sampleFrame(4).encoded()
        let f = sampleFrame(5).encoded()
        var stream: [UInt8] = []
        hello().encode(into: &stream)
        stream += [0x41, 0x42, 0x43] + a  // garbage without a delimiter, then a frame
        stream += b.dropLast() + c  // b's delimiter lost: both b and c come out
        stream += b.dropLast() + [0x20] + d  // a flipped delimiter after a repeat of b: d recovered
        stream += [UInt8](repeating: 0x77, count: 300) + e  // oversize garbage, then a frame
        stream += f
        let (frames, counters) = decodeAll(stream, chunks: chunks)
        let samples = frames.compactMap(\.sample)
        // The repeat of b is recovered (counted) but dropped as a duplicate.
        #expect(samples.map { frameIndex(of: $0.raw) } == [0, 1, 2, 3, 4, 5])
        #expect(counters.recoveredFrames == 6)  // a; b and c; b and d; e
        #expect(counters.duplicates == 1 && counters.samplesDecoded == 7)
        #expect(counters.framingErrors + counters.crcErrors == 3)
        #expect(counters.oversizeFrames == 1)
        #expect(counters.runs == 6)  // hello, 3 damaged, oversize, f
    }

    /// An intact SAMPLE whose last 17 encoded bytes are themselves a valid
    /// HELLO (protocol 39), after line noise: the SAMPLE comes out, not the
    /// HELLO that would end a run ("reflash the board"). Found by an outside test.
    @Test func anIntactFrameWinsOverAShorterFrameInsideIt() {
        let sample = SampleFrame(sequence: 52, boardTime: 52_000,
                                 raw: RawSample(accel: Axes3(x: 0x0127, y: 0x3E80, z: 0), temperature: 0, gyro: Axes3(x: 0, y: 0, z: 0)))
        let wire = sample.encoded()
        let helloLength = FrameType.hello.bodyCount + 4
        // Not vacuous: on its own, the tail is a HELLO.
        let tail = decodeAll([0] + wire.suffix(helloLength + 1)).frames
        guard tail.count == 1, case .hello(let fake) = tail[0] else {
            Issue.record("the tail is no HELLO: \(tail)")
            return
        }
        #expect(fake.protocolVersion == 39)
        var stream: [UInt8] = []
        hello().encode(into: &stream)
        stream += [0x55, 0xAA, 0x77] + wire  // noise with no delimiter, then the intact SAMPLE
        let (frames, counters) = decodeAll(stream)
        #expect(frames.count == 2)
        #expect(frames.last?.sample?.sequence == 52 && frames.last?.sample?.raw == sample.raw)
        #expect(counters.recoveredFrames == 1 && counters.errors == 1)
    }

    /// A gap of 1000 frames at 1 kHz: widened from the time only by a rate
    /// HELLO may truly have; 65 535 Hz (a damaged or foreign HELLO) or 0 counts
    /// from the sequence numbers alone, not as 65 512 lost.
    @Test(arguments: [(UInt16(1000), UInt64(999)), (65_535, 231), (0, 231), (20_000, 19_943)])  // 20 kHz: the count ≡ 231 (mod 256) nearest 20 000 periods
    func onlyAPlausibleRateWidensAGap(rate: UInt16, lost: UInt64) {
        var stream: [UInt8] = [0]
        hello(rateHz: rate).encode(into: &stream)
        for i in 0..<10 { sampleFrame(i, periodMicros: 1000).encode(into: &stream) }
        sampleFrame(1009, periodMicros: 1000).encode(into: &stream)
        let (_, counters) = decodeAll(stream)
        // The first sample after HELLO counts its own sequence number (0): none.
        #expect(counters.lostFrames == lost, "\(rate) Hz")
    }

    @Test func damagedFramesAreNotRecovered() {
        var stream: [UInt8] = [0x00]
        var a = sampleFrame(0).encoded()
        a[10] ^= 0x01
        stream += a  // one bit flipped: its run fails, and no candidate inside passes
        let (frames, counters) = decodeAll(stream)
        #expect(frames.isEmpty)
        #expect(counters.recoveredFrames == 0)
        #expect(counters.errors == 1)
    }

    /// A host that opens the port while the board is talking joins mid-frame:
    /// that first fragment is not an error, and neither is the one after a replug.
    @Test func aFragmentAtTheJoinIsNotAnError() {
        let frame = sampleFrame(0).encoded()
        var decoder = FrameDecoder()
        var delivered = decodeAll(Array(frame[9...]) + sampleFrame(1).encoded(), decoder: &decoder)
        #expect(delivered.count == 1)
        #expect(decoder.counters.partialAtJoin == 1 && decoder.counters.errors == 0)

        // Later damage is an error again.
        _ = decodeAll(Array(frame[9...]), decoder: &decoder)
        #expect(decoder.counters.partialAtJoin == 1 && decoder.counters.errors == 1)

        // After a replug the first fragment is a join again.
        decoder.linkRestarted()
        delivered = decodeAll(Array(frame[5...]) + sampleFrame(2).encoded(), decoder: &decoder)
        #expect(delivered.count == 1)
        #expect(decoder.counters.partialAtJoin == 2 && decoder.counters.errors == 1)
        #expect(decoder.counters.runs == 5)
    }

    /// A 0x00 first marks a frame boundary: what follows is judged in full.
    @Test func aLeadingDelimiterMeansInSync() {
        var broken = sampleFrame(0).encoded()
        broken[4] ^= 0x10
        var decoder = FrameDecoder()
        _ = decodeAll([0x00] + broken, decoder: &decoder)
        #expect(decoder.counters.partialAtJoin == 0 && decoder.counters.errors == 1)
    }
}
