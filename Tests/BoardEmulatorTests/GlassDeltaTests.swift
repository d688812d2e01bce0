import Testing
import WireProtocol
@testable import BoardEmulator

/// Only what changed goes out, on our firmware in simavr (docs/display.md,
/// "Only what changed"): small moves cost fewer bus bytes than whole frames,
/// and the glass still shows exactly each view it counts.
@Suite struct GlassDeltaTests {
    /// View `k` of a slow pan over the map's quieter part: a pixel right every
    /// view, a pixel down every other.
    static func slowPan(_ k: Int) -> OffsetsFrame {
        OffsetsFrame(sequence: UInt8(truncatingIfNeeded: k), viewportX: UInt16(96 + k), viewportY: UInt16(112 + k / 2),
                     ribbonX: 0, ribbonBottom: 0, flags: [])
    }

    @Test func aSlowPanSendsLessThanWholeFramesAndTheGlassMatchesEachView() throws {
        let views = 50
        let run = try GlassStatsTests.run(everyMicros: 16_000, endMicros: 300_000 + UInt64(views) * 16_000 + 200_000,
                                          offsets: { Self.slowPan(min($0, views - 1)) })
        let stats = run.stats
        print("a slow pan, a view every 16 ms: \(stats.line)")
        // Whole frames are 1053 bus bytes here (the firmware before this change);
        // this part of the map leaves about a third of each page alike.
        #expect(stats.bytesPerFrame < 950, "\(stats.bytesPerFrame) bus bytes a frame for 1-pixel moves")
        // Every frame counted is the glass matching a view's screen exactly
        // (MotionToPhotonTracker); a stale byte would leave views unmatched.
        #expect(stats.frames.count >= 20, "\(stats.frames.count) glass frames of \(views) views")
        let last = try #require(stats.frames.last)
        let final = Self.slowPan(views - 1)
        #expect(last.viewportX == final.viewportX && last.viewportY == final.viewportY,
                "the glass ends on the last view: \(last.viewportX),\(last.viewportY)")
    }
}
