import Testing
import WireProtocol
@testable import BoardEmulator

/// Only what changed goes out, on our firmware in simavr (docs/display.md,
/// "Only what changed"): small moves cost fewer bus bytes than whole frames,
/// and the glass still shows exactly each view it counts (every glass frame
/// is the glass matching a view's screen, MotionToPhotonTracker: a stale
/// byte would leave views unmatched and the run ending on an older one).
@Suite struct GlassDeltaTests {
    static let views = 50

    /// View `k` of a slow pan over the map's quieter part: a pixel right every
    /// view, a pixel down every other; the last one held.
    static func slowPan(_ k: Int) -> OffsetsFrame {
        let k = min(k, views - 1)
        return OffsetsFrame(sequence: UInt8(truncatingIfNeeded: k), viewportX: UInt16(96 + k), viewportY: UInt16(112 + k / 2),
                            ribbonX: 0, ribbonBottom: 0, flags: [])
    }

    static let endMicros = 300_000 + UInt64(views) * 16_000 + 200_000

    /// The run ended on the last view, and showed enough of the others.
    static func expectEndsOnTheLastView(_ stats: GlassStats) throws {
        #expect(stats.frames.count >= 20, "\(stats.frames.count) glass frames of \(views) views")
        let last = try #require(stats.frames.last)
        let final = slowPan(views - 1)
        #expect(last.viewportX == final.viewportX && last.viewportY == final.viewportY,
                "the glass ends on the last view: \(last.viewportX),\(last.viewportY)")
    }

    /// On the SSD1306 (the window command with the run's column) and the
    /// SH1106 (the page command with the column, plus its 2).
    @Test(arguments: [EmulatedDisplay.ssd1306, .sh1106])
    func aSlowPanSendsLessThanWholeFramesAndTheGlassMatchesEachView(display: EmulatedDisplay) throws {
        let stats = try GlassStatsTests.run(everyMicros: 16_000, endMicros: Self.endMicros, display: display,
                                            offsets: Self.slowPan).stats
        print("a slow pan on the \(display), a view every 16 ms: \(stats.line)")
        // Whole frames are 1053 bus bytes on the SSD1306, 1104 on the SH1106
        // (the firmware before this change); here about a third of each page
        // stays alike.
        #expect(stats.bytesPerFrame < 950, "\(stats.bytesPerFrame) bus bytes a frame for 1-pixel moves")
        try Self.expectEndsOnTheLastView(stats)
    }

    /// Pins over a pan that then holds still while one pin moves every view:
    /// the pages around the pin are compared (little else changes), and a
    /// PIN that lands while a page is drawn leaves that page unmatched by
    /// any redraw, so the next frame sends it whole. A pin left behind on
    /// the glass would keep every later frame from matching its screen.
    @Test func aPinThatMovesLeavesNothingBehind() throws {
        let panned = 20
        func still(_ k: Int) -> OffsetsFrame { Self.slowPan(min(k, panned - 1)) }
        func pins(_ k: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            if k == 0 {
                bytes += DrawerFrame(height: 0, shown: 0, scroll: 0, current: DrawerFrame.noItem, dragItem: DrawerFrame.noItem,
                                     dragLeft: 0, dragTop: 0, pinCount: 2).encoded()
                bytes += PinFrame(slot: 0, item: 1, x: 170, y: 140).encoded()
            }
            if k >= panned && k < Self.views {
                bytes += PinFrame(slot: 1, item: 2, x: UInt16(110 + 2 * (k - panned)), y: UInt16(125 + (k - panned) / 3)).encoded()
            }
            return bytes
        }
        let stats = try GlassStatsTests.run(everyMicros: 16_000, endMicros: Self.endMicros, offsets: still, also: pins).stats
        print("a pan, then a pin moving: \(stats.line)")
        let lastPin = 300_000 + UInt64(Self.views - 1) * 16_000
        let last = try #require(stats.frames.last)
        #expect(last.photonMicros > lastPin, "the last glass frame matching its screen came at \(last.photonMicros) µs, before the last PIN at \(lastPin)")
        let whilePinMoves = stats.frames.filter { $0.photonMicros > 300_000 + UInt64(panned) * 16_000 }.count
        #expect(whilePinMoves >= 10, "\(whilePinMoves) glass frames while the pin moved over 30 views")
    }
}
