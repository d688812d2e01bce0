import TiltCore
import Testing
import WireProtocol

/// Runs longer than any frame (a lost delimiter merging frames into garbage) are
/// searched at their start and at their end, like every damaged run
/// (docs/protocol.md, "How the host's decoder counts"), however the bytes are
/// chunked.
@Suite struct OversizeRunTests {
    static let chunkings: [[Int]] = [[], [1], [3], [7], [22], [64], [65], [66], [200]]

    static func garbage(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) | 0x80 }  // never 0x00
    }

    @Test(arguments: chunkings)
    func aFrameWhoseDelimiterWasLostBeforeGarbageIsRecovered(chunks: [Int]) {
        var stream: [UInt8] = []
        hello().encode(into: &stream)
        for index in 0..<4 { sampleFrame(index).encode(into: &stream) }
        stream += sampleFrame(4).encoded().dropLast() + Self.garbage(100, seed: 1) + [0x00]  // 4: delimiter lost
        for index in 5..<8 { sampleFrame(index).encode(into: &stream) }
        let (frames, counters) = decodeAll(stream, chunks: chunks)
        #expect(frames.compactMap(\.sample).map { frameIndex(of: $0.raw) } == Array(0..<8))
        #expect(counters.oversizeFrames == 1 && counters.recoveredFrames == 1)
        #expect(counters.errors == 1 && counters.lostFrames == 0)
        #expect(counters.runs == 9)
    }

    @Test(arguments: chunkings)
    func framesAtBothEndsOfAnOversizeRunAreRecovered(chunks: [Int]) {
        // 3 and 4 lost their delimiters, garbage follows, then 5 arrives intact:
        // one run, 3 4 garbage 5; 3 starts it, 5 ends it.
        var stream: [UInt8] = []
        hello().encode(into: &stream)
        for index in 0..<3 { sampleFrame(index).encode(into: &stream) }
        stream += sampleFrame(3).encoded().dropLast() + sampleFrame(4).encoded().dropLast()
        stream += Self.garbage(70, seed: 2) + sampleFrame(5).encoded()
        for index in 6..<9 { sampleFrame(index).encode(into: &stream) }
        let (frames, counters) = decodeAll(stream, chunks: chunks)
        // 4 sits inside the run, neither at its start nor at its end: counted lost.
        #expect(frames.compactMap(\.sample).map { frameIndex(of: $0.raw) } == [0, 1, 2, 3, 5, 6, 7, 8])
        #expect(counters.oversizeFrames == 1 && counters.recoveredFrames == 2)
        #expect(counters.lostFrames == 1)
        #expect(counters.samplesDecoded + counters.lostFrames == 9)
        #expect(counters.runs == 8)
    }

    @Test(arguments: chunkings)
    func anOversizeRunAtTheJoinIsSearchedToo(chunks: [Int]) {
        // The host joins inside garbage; the frame right after it lost its delimiter.
        var stream = Self.garbage(30, seed: 3) + [0x00]
        stream += sampleFrame(0).encoded().dropLast() + Self.garbage(90, seed: 4) + [0x00]
        for index in 1..<3 { sampleFrame(index).encode(into: &stream) }
        let (frames, counters) = decodeAll(stream, chunks: chunks)
        #expect(frames.compactMap(\.sample).map { frameIndex(of: $0.raw) } == [0, 1, 2])
        #expect(counters.partialAtJoin == 1 && counters.oversizeFrames == 1 && counters.recoveredFrames == 1)
    }

    @Test func garbageAloneRecoversNothing() {
        for chunks in Self.chunkings {
            let (frames, counters) = decodeAll([0x00] + Self.garbage(500, seed: 5) + [0x00], chunks: chunks)
            #expect(frames.isEmpty && counters.oversizeFrames == 1 && counters.recoveredFrames == 0)
        }
    }

    /// Long runs with frames at either end, garbage and delimiters anywhere:
    /// chunking never changes what comes out.
    @Test func randomLongRunsDecodeTheSameInAnyChunking() {
        var random = SplitMix64(seed: 9)
        var stream: [UInt8] = []
        for index in 0..<400 {
            let wire = sampleFrame(index).encoded()
            switch random.next() % 4 {
            case 0: stream += wire.dropLast() + Self.garbage(Int(random.next() % 300), seed: random.next())
            case 1: stream += Self.garbage(Int(random.next() % 300), seed: random.next()) + wire
            case 2: stream += wire.dropLast()
            default: stream += wire
            }
        }
        let whole = decodeAll(stream)
        for chunk in [1, 2, 5, 13, 64, 65, 66, 67, 130, 4096] {
            let chunked = decodeAll(stream, chunks: [chunk])
            #expect(chunked.frames == whole.frames, "chunk \(chunk)")
            #expect(chunked.counters == whole.counters, "chunk \(chunk)")
        }
        #expect(whole.counters.oversizeFrames > 50 && whole.counters.recoveredFrames > 100)
    }

    /// Garbage with no delimiter after it, at the end of the stream or before a
    /// replug, is damage whatever would have followed: counted once it is
    /// longer than any frame, never when it is a frame cut short.
    @Test(arguments: chunkings)
    func anOversizeRunLeftUnfinishedIsCountedWhenTheStreamEnds(chunks: [Int]) {
        var stream: [UInt8] = []
        hello().encode(into: &stream)
        for index in 0..<3 { sampleFrame(index).encode(into: &stream) }
        var decoder = FrameDecoder()
        _ = decodeAll(stream + Self.garbage(5_000, seed: 6), chunks: chunks, decoder: &decoder)
        #expect(decoder.counters.errors == 0, "no delimiter yet: the run may still be anything")
        decoder.endOfStream()
        #expect(decoder.counters.oversizeFrames == 1 && decoder.counters.errors == 1)
        decoder.endOfStream()
        #expect(decoder.counters.errors == 1, "counted once")

        var cutShort = FrameDecoder()
        _ = decodeAll(stream + sampleFrame(3).encoded().prefix(12), chunks: chunks, decoder: &cutShort)
        cutShort.endOfStream()
        #expect(cutShort.counters.errors == 0 && cutShort.counters.framesDecoded == 4)

        var replugged = FrameDecoder()
        _ = decodeAll(stream + Self.garbage(300, seed: 7), chunks: chunks, decoder: &replugged)
        replugged.linkRestarted()
        #expect(replugged.counters.oversizeFrames == 1)
        _ = decodeAll(sampleFrame(9).encoded(), decoder: &replugged)
        #expect(replugged.counters.errors == 1, "the next run starts afresh")

        var joinedInGarbage = FrameDecoder()
        _ = decodeAll(Self.garbage(300, seed: 8), chunks: chunks, decoder: &joinedInGarbage)
        joinedInGarbage.endOfStream()
        #expect(joinedInGarbage.counters.partialAtJoin == 1 && joinedInGarbage.counters.errors == 0)
    }
}
