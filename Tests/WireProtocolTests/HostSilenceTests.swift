import TiltCore
import Testing
import WireProtocol

/// The host stops reading for longer than SAMPLE's 24-bit time can tell
/// (Ctrl-Z, a laptop asleep) while the board goes on: what the buffers held
/// arrives first, then a drop of any length, then fresh frames, all in the
/// burst after the host resumes. The host's own clock places the first frame
/// after the drop, so the frames lost are counted exactly; they came out short
/// by whole multiples of 256 (a 30 s stop: 1 931 dropped, 139 counted).
@Suite struct HostSilenceTests {
    static let period = 10_000  // µs: 100 Hz

    /// Frames `range` as the board sends them, one chunk each, read at `hostMicros(i)`.
    static func feed(_ reader: inout StreamReader, _ range: Range<Int>, hostMicros: (Int) -> UInt64, into samples: inout [TimedSample]) {
        for index in range {
            sampleFrame(index, periodMicros: period).encoded().withUnsafeBytes { bytes in
                reader.receive(bytes, at: HostTime(micros: hostMicros(index))) { event in
                    if case .sample(let sample) = event { samples.append(sample) }
                }
            }
        }
    }

    @Test(arguments: [12, 30, 45, 100])
    func aDropAfterTheHostsLongSilenceIsCountedExactly(seconds: Int) {
        var reader = StreamReader(format: .binaryProtocol)
        var samples: [TimedSample] = []
        hello(rateHz: 100).encoded().withUnsafeBytes { reader.receive($0, at: HostTime(micros: 0)) { _ in } }
        let latency: UInt64 = 300
        // Read as they come until frame 499 (5 s), then the host stops for `seconds`.
        Self.feed(&reader, 0..<500, hostMicros: { UInt64($0 * Self.period) + latency }, into: &samples)
        let resumed = UInt64(499 * Self.period) + UInt64(seconds) * 1_000_000
        // The buffers held 200 frames (2 s); the rest until the resume was dropped; then fresh frames.
        let fresh = Int(resumed / UInt64(Self.period)) + 1
        Self.feed(&reader, 500..<700, hostMicros: { _ in resumed }, into: &samples)
        Self.feed(&reader, fresh..<(fresh + 300), hostMicros: { UInt64($0 * Self.period) + latency + 1_000 }, into: &samples)
        #expect(reader.decoderCounters.lostFrames == UInt64(fresh - 700), "\(seconds) s")
        #expect(samples.count == 500 + 200 + 300)
        #expect(samples[700].time.micros == UInt64(fresh * Self.period), "the first frame after the drop at its own time")
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.time.micros < $1.time.micros })
    }

    /// A frame that comes back in sequence in the burst (the board's buffering
    /// swapped two) is still reordered, not read as wraps after the silence.
    @Test func aReorderedFrameInTheBurstIsStillReordered() {
        var reader = StreamReader(format: .binaryProtocol)
        var samples: [TimedSample] = []
        hello(rateHz: 100).encoded().withUnsafeBytes { reader.receive($0, at: HostTime(micros: 0)) { _ in } }
        Self.feed(&reader, 0..<500, hostMicros: { UInt64($0 * Self.period) }, into: &samples)
        let resumed = UInt64(499 * Self.period) + 30_000_000
        for index in [500, 502, 501, 503] {
            Self.feed(&reader, index..<(index + 1), hostMicros: { _ in resumed }, into: &samples)
        }
        #expect(reader.decoderCounters.reorderedFrames == 1 && reader.decoderCounters.lostFrames == 0)
        #expect(samples.map(\.time.micros).suffix(3) == [500, 502, 503].map { UInt64($0 * Self.period) })
    }

    /// A board that was silent itself (its clock paused, as the avr engine's
    /// while tiltsim is stopped) carries on where it was: nothing is widened,
    /// then or later, when a real 2 s drop is a 2 s drop.
    @Test func aBoardThatPausedItsOwnClockIsNotWidened() {
        var reader = StreamReader(format: .binaryProtocol)
        var samples: [TimedSample] = []
        hello(rateHz: 100).encoded().withUnsafeBytes { reader.receive($0, at: HostTime(micros: 0)) { _ in } }
        Self.feed(&reader, 0..<500, hostMicros: { UInt64($0 * Self.period) }, into: &samples)
        let paused: UInt64 = 30_000_000
        Self.feed(&reader, 500..<800, hostMicros: { UInt64($0 * Self.period) + paused }, into: &samples)
        #expect(reader.decoderCounters.lostFrames == 0)
        Self.feed(&reader, 1000..<1100, hostMicros: { UInt64($0 * Self.period) + paused }, into: &samples)
        #expect(reader.decoderCounters.lostFrames == 200, "frames 800…999: a plain 2 s drop")
        #expect(samples.last?.time.micros == UInt64(1099 * Self.period))
    }
}
