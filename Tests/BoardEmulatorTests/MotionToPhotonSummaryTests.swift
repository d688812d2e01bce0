import Testing
@testable import BoardEmulator

/// Nearest-rank percentiles and the frame rate, against figures worked by hand.
@Suite struct MotionToPhotonSummaryTests {
    @Test func twentyLatenciesGiveTheTenthAndNineteenth() {
        // 1...20 ms shuffled: p50 is the 10th smallest, p95 the 19th (ceil(0.95 × 20)).
        let latencies: [UInt64] = [7, 3, 20, 1, 14, 9, 12, 5, 18, 2, 16, 4, 11, 19, 6, 8, 13, 10, 17, 15].map { $0 * 1000 }
        let s = MotionToPhotonSummary(latencies: latencies, spanMicros: 1_900_000)
        #expect(s.frames == 20)
        #expect(s.p50Micros == 10_000)
        #expect(s.p95Micros == 19_000)
        #expect(s.maxMicros == 20_000)
        // 19 intervals in 1.9 s.
        #expect(abs(s.framesPerSecond - 10) < 1e-12)
    }

    @Test func oneFrameIsItsOwnPercentiles() {
        let s = MotionToPhotonSummary(latencies: [42_000], spanMicros: 0)
        #expect(s.p50Micros == 42_000 && s.p95Micros == 42_000 && s.maxMicros == 42_000)
        #expect(s.framesPerSecond == 0)
    }

    @Test func aStillViewHasNoFrames() {
        let s = MotionToPhotonSummary(latencies: [], spanMicros: 5_000_000)
        #expect(s.frames == 0)
        #expect(s.p50Micros == nil && s.p95Micros == nil && s.maxMicros == nil)
        #expect(s.framesPerSecond == 0)
    }

    @Test func theOneLineSummary() {
        // 3 frames over 100 ms: 2 intervals in 0.1 s = 20.0 frames/s.
        // Bus: 40 cycles a period, 1026 B in 1 transaction = 369_440 cycles → 43.3 frames/s.
        let s = MotionToPhotonSummary(latencies: [61_000, 75_540, 80_249], spanMicros: 100_000)
        let bus = GlassBusLimit(cpuHz: 16_000_000, twbr: 12)
        #expect(s.line(bus: bus, bytesPerFrame: 1026, transactionsPerFrame: 1)
            == "glass 20.0 frames/s (0.0 while moving), bus limit 43.3 (1026 B/frame in 1 transactions), motion to photon p50 75.5 ms, p95 80.2 ms, max 80.2 ms")
        #expect(MotionToPhotonSummary(latencies: [], spanMicros: 0).line(bus: bus, bytesPerFrame: 1026, transactionsPerFrame: 1)
            == "glass 0.0 frames/s (0.0 while moving), bus limit 43.3 (1026 B/frame in 1 transactions), no frame reached the glass")
    }

    /// A glass frame whose view was sent at `sent`, on the glass at `photon`.
    static func frame(sent: UInt64, photon: UInt64) -> GlassFrame {
        GlassFrame(viewportX: 0, viewportY: 0, ribbonX: 0, ribbonBottom: 0, offsetsStartMicros: sent, offsetsEndMicros: sent,
                   sampleMicros: 0, sampleSequence: 0, photonMicros: photon, displayBytes: 0, displayTransactions: 0)
    }

    /// Frames at 0, 30 and 60 ms, a still second (the next view sent at
    /// 1040 ms), then 1060 and 1085 ms: three intervals while moving (30 + 30
    /// + 25 = 85 ms); the 1000 ms one is still.
    @Test func movingFramesPerSecondLeavesStillStretchesOut() {
        let stats = GlassStats(frames: [(0, 0), (10_000, 30_000), (35_000, 60_000), (1_040_000, 1_060_000), (1_050_000, 1_085_000)]
            .map { Self.frame(sent: $0, photon: $1) }, bus: nil)
        let s = stats.summary
        #expect(s.movingIntervals == 3 && s.movingSpanMicros == 85_000)
        #expect(abs(s.movingFramesPerSecond - 3 / 0.085) < 1e-9)
        // The whole run: 4 intervals over 1.085 s.
        #expect(abs(s.framesPerSecond - 4 / 1.085) < 1e-9)
        #expect(stats.json.contains("\"movingFramesPerSecond\":35.3,"))
    }

    /// A slow bus (100 kHz: a frame takes longer than the still gap) draws
    /// back to back, each view waiting when the frame before reached the
    /// glass: every interval is moving, and the rate is the bus's (it read
    /// 19 frames/s against a 16.0 bus limit when long intervals were taken for still ones).
    @Test func aSlowBusDrawingBackToBackIsMoving() {
        let photons: [UInt64] = [10_000, 130_000, 260_000, 375_000, 500_000]
        let stats = GlassStats(frames: zip([5_000] + photons.dropLast(), photons).map { Self.frame(sent: $0 - 5_000, photon: $1) }, bus: nil)
        let s = stats.summary
        #expect(s.movingIntervals == 4 && s.movingSpanMicros == 490_000)
        #expect(abs(s.movingFramesPerSecond - 4 / 0.49) < 1e-9)
    }
}
