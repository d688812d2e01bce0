import TiltCore
import Testing
import WireProtocol

/// SAMPLE frames that come back in sequence (a swapped pair, a repeat) or whose
/// board time steps back: counted, dropped, and never a wrap of the sequence or
/// of the 24-bit time (docs/protocol.md, "Reordered and duplicate frames").
@Suite struct ReorderedFrameTests {
    /// `order` are frame numbers (sequence = number mod 256, time = number × period).
    static func stream(_ order: [Int], rateHz: UInt16? = 100, periodMicros: Int = 10_000) -> [UInt8] {
        var bytes: [UInt8] = []
        if let rateHz { hello(rateHz: rateHz).encode(into: &bytes) }
        for index in order { sampleFrame(index, periodMicros: periodMicros).encode(into: &bytes) }
        return bytes
    }

    static func swapped(_ count: Int, at first: Int) -> [Int] {
        var order = Array(0..<count)
        order.swapAt(first, first + 1)
        return order
    }

    @Test(arguments: [UInt16(100), 1000, nil] as [UInt16?])
    func aSwappedPairDropsTheLateFrameAndLosesNothing(rateHz: UInt16?) {
        let (frames, counters) = decodeAll(Self.stream(Self.swapped(40, at: 20), rateHz: rateHz))
        let samples = frames.compactMap(\.sample)
        #expect(samples.map { frameIndex(of: $0.raw) } == Array(0..<20) + [21] + Array(21..<40).dropFirst())
        #expect(samples.allSatisfy { $0.timeMicros == UInt64(frameIndex(of: $0.raw) * 10_000) }, "no time jump")
        #expect(counters.reorderedFrames == 1)
        #expect(counters.duplicates == 0)
        #expect(counters.lostFrames == 0, "the late frame filled the gap its successor opened")
        #expect(counters.samplesDecoded + counters.lostFrames == 40)
    }

    @Test func lateFramesFillTheirGapsOneByOne() {
        // 10, 13, 11, 12, 14: 13 opens a gap of two, which 11 and 12 then fill.
        let order = Array(0..<11) + [13, 11, 12] + Array(14..<30)
        let (frames, counters) = decodeAll(Self.stream(order))
        #expect(frames.compactMap(\.sample).map { frameIndex(of: $0.raw) } == Array(0..<11) + Array(13..<30))
        #expect(counters.reorderedFrames == 2 && counters.lostFrames == 0 && counters.duplicates == 0)
        #expect(counters.samplesDecoded + counters.lostFrames == 30)
    }

    @Test func aRepeatedFrameIsADuplicateAndDropped() {
        let order = Array(0..<10) + [9, 7] + Array(10..<20)  // 9 again; 7 again, long after it arrived
        let (frames, counters) = decodeAll(Self.stream(order))
        #expect(frames.compactMap(\.sample).map { frameIndex(of: $0.raw) } == Array(0..<20))
        #expect(counters.duplicates == 2 && counters.reorderedFrames == 0 && counters.lostFrames == 0)
        #expect(counters.samplesDecoded - counters.duplicates + counters.lostFrames == 20)
    }

    @Test func aFrameFromBeforeTheWindowIsNotStale() {
        // 63 behind is the last stale step; 64 behind is read as a gap forward
        // (time then decides, with the rate known). Without the rate and with the
        // time not going back, a step of 193...255 is a gap, as it always was.
        var bytes: [UInt8] = []
        for index in [0, 1] + [1 + 200] { sampleFrame(index, periodMicros: 1000).encode(into: &bytes) }
        let (frames, counters) = decodeAll(bytes)
        #expect(frames.count == 3)
        #expect(counters.lostFrames == 199 && counters.reorderedFrames == 0 && counters.duplicates == 0)
    }

    @Test func aTimestampSteppingBackHoldsTimeInsteadOfWrapping() {
        // Frame 10's board time is 300 µs before frame 9's; its sequence is right.
        var bytes: [UInt8] = []
        hello(rateHz: 100).encode(into: &bytes)
        for index in 0..<20 {
            var frame = sampleFrame(index, periodMicros: 10_000)
            if index == 10 { frame.boardTime = 9 * 10_000 - 300 }
            frame.encode(into: &bytes)
        }
        let (frames, counters) = decodeAll(bytes)
        let times = frames.compactMap(\.sample).map(\.timeMicros)
        #expect(times.count == 20)
        #expect(times[10] == 90_000, "held at the previous sample's time")
        #expect(Array(times[11...]) == (11..<20).map { UInt64($0 * 10_000) }, "back on the board's time")
        #expect(counters.lostFrames == 0 && counters.duplicates == 0 && counters.reorderedFrames == 0)
    }

    @Test func aFarLongerSilenceThanTheBackWindowIsStillAGap() {
        // 10 s forward (under 2^24 − 2^22 µs) at 500 Hz: 5000 frames, counted through time.
        let order = Array(0..<20) + Array(5020..<5040)
        let (_, counters) = decodeAll(Self.stream(order, rateHz: 500, periodMicros: 2000))
        #expect(counters.lostFrames == 5000 && counters.reorderedFrames == 0 && counters.duplicates == 0)
    }
}
