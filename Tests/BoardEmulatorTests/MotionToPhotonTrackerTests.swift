import FirmwareCore
import Testing
import TiltAssets
import TiltDisplay
import WireProtocol
@testable import BoardEmulator

/// The tracker alone, fed hand-made events: which sample a view is timed
/// from, which expected screens count as glass frames and which do not.
@Suite struct MotionToPhotonTrackerTests {
    static let renderer = try! TiltAssets.load().renderer
    static let byteMicros: UInt64 = 87

    static func offsets(_ x: UInt16, _ y: UInt16) -> OffsetsFrame {
        OffsetsFrame(sequence: 0, viewportX: x, viewportY: y, ribbonX: 0, ribbonBottom: 0, flags: [])
    }

    static func screen(_ o: OffsetsFrame) -> [UInt8] {
        var screen = Screen()
        renderer.render(viewportX: o.viewportX, viewportY: o.viewportY, ribbonX: o.ribbonX, ribbonBottom: o.ribbonBottom, into: &screen)
        return screen.bytes
    }

    /// A SAMPLE's wire bytes (the firmware's encoder) for `raw`.
    static func sampleWire(sequence: UInt8, raw: [UInt8], boardTime: UInt32 = 0) -> [UInt8] {
        var sample = tilt_sample()
        sample.seq = sequence
        sample.time_us = boardTime
        withUnsafeMutableBytes(of: &sample.raw) { for i in 0..<14 { $0[i] = raw[i] } }
        var wire = [UInt8](repeating: 0, count: Int(TILT_MAX_WIRE))
        let n = tilt_encode_sample(&sample, &wire)
        return Array(wire[0..<Int(n)])
    }

    /// Feeds `bytes` one a byte time apart from `start`; returns when the last was handed over.
    @discardableResult
    static func feed(_ bytes: [UInt8], from start: UInt64, _ byte: (UInt8, UInt64) -> Void) -> UInt64 {
        for (i, b) in bytes.enumerated() { byte(b, start + UInt64(i) * byteMicros) }
        return start + UInt64(bytes.count - 1) * byteMicros
    }

    static func glass(_ tracker: inout MotionToPhotonTracker, _ bytes: [UInt8], at micros: UInt64) {
        bytes.withUnsafeBytes { tracker.glassChecked($0, photonMicros: micros, displayBytes: 0, displayTransactions: 0) }
    }

    @Test func aViewIsTimedFromTheNewestSampleWhollySentBeforeItAndOvertakenViewsDoNotCount() {
        var tracker = MotionToPhotonTracker(renderer: Self.renderer)
        let raw1 = [UInt8](1...14), raw2 = [UInt8](21...34), raw3 = [UInt8](41...54)
        // Three bursts read; the first two sent as SAMPLEs (the third not yet).
        raw1.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 1_000, raw: $0) }
        raw2.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 11_000, raw: $0) }
        raw3.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 21_000, raw: $0) }
        Self.feed(Self.sampleWire(sequence: 7, raw: raw1), from: 1_500) { tracker.boardByte($0, atMicros: $1) }
        let last2 = Self.feed(Self.sampleWire(sequence: 8, raw: raw2), from: 11_500) { tracker.boardByte($0, atMicros: $1) }
        // A: its first byte goes out as SAMPLE 8's last byte is still on the line: timed from SAMPLE 7.
        let a = Self.offsets(10, 20)
        Self.feed(a.encoded(), from: last2 + Self.byteMicros - 1) { tracker.hostByte($0, atMicros: $1) }
        Self.glass(&tracker, Self.screen(a), at: 40_000)
        // B then C, both after SAMPLE 8 was off the line; the glass goes straight to C.
        let b = Self.offsets(30, 40), c = Self.offsets(50, 60)
        Self.feed(b.encoded(), from: 20_000) { tracker.hostByte($0, atMicros: $1) }
        Self.feed(c.encoded(), from: 22_000) { tracker.hostByte($0, atMicros: $1) }
        Self.glass(&tracker, [UInt8](repeating: 0x55, count: 1024), at: 45_000)  // a frame half drawn: nothing
        Self.glass(&tracker, Self.screen(c), at: 50_000)
        Self.glass(&tracker, Self.screen(b), at: 60_000)  // B was overtaken: it no longer counts
        Self.glass(&tracker, Self.screen(c), at: 70_000)  // C again, after B's pixels: not expected any more
        let frames = tracker.frames
        #expect(frames.map(\.viewportX) == [10, 50])
        #expect(frames.map(\.sampleSequence) == [7, 8])
        #expect(frames.map(\.sampleMicros) == [1_000, 11_000])
        #expect(frames.map(\.latencyMicros) == [39_000, 39_000])
        #expect(frames.map(\.photonMicros) == [40_000, 50_000])
        #expect(frames.map(\.offsetsStartMicros) == [last2 + Self.byteMicros - 1, 22_000])
    }

    /// A held tilt gives byte-identical samples, so bursts are told apart by
    /// order alone: a sample's data read a second time after its SAMPLE went
    /// (seen with the display at 800 kHz, 14 times in the tour) must not leave an entry that
    /// every later SAMPLE then matches one burst too early.
    @Test func aSampleReadTwiceStillTimesLaterViewsFromTheirOwnSample() {
        var tracker = MotionToPhotonTracker(renderer: Self.renderer)
        let raw = [UInt8](1...14)  // the same bytes at every sample
        raw.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 1_000, raw: $0) }
        Self.feed(Self.sampleWire(sequence: 1, raw: raw), from: 1_500) { tracker.boardByte($0, atMicros: $1) }
        raw.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 1_000, raw: $0) }  // read again, never sent
        raw.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 11_000, raw: $0) }
        Self.feed(Self.sampleWire(sequence: 2, raw: raw), from: 11_500) { tracker.boardByte($0, atMicros: $1) }
        raw.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 21_000, raw: $0) }
        Self.feed(Self.sampleWire(sequence: 3, raw: raw), from: 21_500) { tracker.boardByte($0, atMicros: $1) }
        let a = Self.offsets(10, 20)
        Self.feed(a.encoded(), from: 25_000) { tracker.hostByte($0, atMicros: $1) }
        Self.glass(&tracker, Self.screen(a), at: 50_000)
        #expect(tracker.frames.map(\.sampleSequence) == [3])
        #expect(tracker.frames.map(\.sampleMicros) == [21_000])
    }

    /// At 1 kHz a sample is now and then read and not sent, and SAMPLEs wait
    /// in the TX buffer; with byte-identical samples (a held tilt) a SAMPLE
    /// carries the burst its board time says (the board's clock a fixed
    /// 400 µs behind, learned from the first), not the unsent one before it.
    @Test func aSampleReadButNotSentDoesNotAgeTheSamplesAfterIt() {
        var tracker = MotionToPhotonTracker(renderer: Self.renderer)
        let raw = [UInt8](1...14)
        raw.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 1_000, raw: $0) }
        Self.feed(Self.sampleWire(sequence: 1, raw: raw, boardTime: 600), from: 1_500) { tracker.boardByte($0, atMicros: $1) }
        raw.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 2_000, raw: $0) }  // read, never sent
        raw.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 3_000, raw: $0) }
        raw.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 5_000, raw: $0) }  // its SAMPLE waits behind 3 000's
        Self.feed(Self.sampleWire(sequence: 3, raw: raw, boardTime: 2_600), from: 5_200) { tracker.boardByte($0, atMicros: $1) }
        let last = Self.feed(Self.sampleWire(sequence: 5, raw: raw, boardTime: 4_600), from: 7_300) { tracker.boardByte($0, atMicros: $1) }
        let a = Self.offsets(10, 20)
        Self.feed(a.encoded(), from: last + 1_000) { tracker.hostByte($0, atMicros: $1) }
        Self.glass(&tracker, Self.screen(a), at: 30_000)
        #expect(tracker.frames.map(\.sampleMicros) == [5_000])
    }

    @Test func theSameViewAgainIsNoFrameAndAHelloResetsTheScene() {
        var tracker = MotionToPhotonTracker(renderer: Self.renderer)
        let raw = [UInt8](1...14)
        raw.withUnsafeBytes { tracker.sensorBurst(sampledAtMicros: 1_000, raw: $0) }
        Self.feed(Self.sampleWire(sequence: 1, raw: raw), from: 1_500) { tracker.boardByte($0, atMicros: $1) }
        let a = Self.offsets(10, 20)
        Self.feed(a.encoded(), from: 10_000) { tracker.hostByte($0, atMicros: $1) }
        Self.glass(&tracker, Self.screen(a), at: 30_000)
        // The same OFFSETS again: the firmware owes no redraw, so a glass showing it is no new frame.
        Self.feed(a.encoded(), from: 40_000) { tracker.hostByte($0, atMicros: $1) }
        Self.glass(&tracker, [UInt8](repeating: 0, count: 1024), at: 45_000)
        Self.glass(&tracker, Self.screen(a), at: 50_000)
        #expect(tracker.frames.count == 1)
        // An open drawer (DRAWER), then a HELLO from the board closes it again (the firmware's rule).
        let drawer = DrawerFrame(height: 30, shown: 30, scroll: 0, current: 0xFF, dragItem: 0xFF, dragLeft: 0, dragTop: 0, pinCount: 0)
        Self.feed(drawer.encoded(), from: 60_000) { tracker.hostByte($0, atMicros: $1) }
        var open = DrawerScene()
        open.setDrawer(height: 30, shown: 30, scroll: 0, current: 0xFF, dragItem: 0xFF, dragLeft: 0, dragTop: 0, pinCount: 0)
        var withDrawer = Screen()
        Self.renderer.render(viewportX: 10, viewportY: 20, ribbonX: 0, ribbonBottom: 0, scene: open, into: &withDrawer)
        #expect(withDrawer.bytes != Self.screen(a))
        Self.glass(&tracker, withDrawer.bytes, at: 80_000)
        #expect(tracker.frames.count == 2)
        var hello = tilt_hello()
        var wire = [UInt8](repeating: 0, count: Int(TILT_MAX_WIRE))
        let n = tilt_encode_hello(&hello, &wire)
        Self.feed(Array(wire[0..<Int(n)]), from: 90_000) { tracker.boardByte($0, atMicros: $1) }
        Self.glass(&tracker, Self.screen(a), at: 120_000)
        #expect(tracker.frames.count == 3)
        #expect(tracker.frames.last?.photonMicros == 120_000)
    }
}
