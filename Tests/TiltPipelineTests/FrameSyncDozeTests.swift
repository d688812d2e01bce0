import Testing
import TiltCore
import WireProtocol
@testable import TiltPipeline

/// Frame sync and the doze, in virtual time: a host that dozes until its next
/// tick would read a READY, and the samples that answer it, up to a tick
/// late, and its view would miss the board's latch. The loop wakes for
/// READY, and again just in time for a fresher view to beat the latch.
@Suite struct FrameSyncDozeTests {
    /// The board draws back to back: a latch every `frameMicros` of board
    /// time, each announced by READY `leadMicros` before it. Board time b
    /// arrives at host time 1100 + (b − 5000), like `BoardStream.samples`.
    static func readies(frameMicros: UInt32, leadMicros: UInt32, seconds: Double) -> [(UInt64, [UInt8])] {
        var out: [(UInt64, [UInt8])] = []
        var latch: UInt32 = 5_000 + 400_000  // from 0.4 s on (after HELLO's SYNC)
        while Double(latch - 5_000) < seconds * 1e6 - 50_000 {
            let sent = latch - leadMicros
            out.append((1_100 + UInt64(sent - 5_000) + 50, ReadyFrame(boardTime: latch, flags: 0).encoded()))
            latch += frameMicros
        }
        return out
    }

    /// 28 ms frames (the display at 400 kHz), and 13 ms frames with READY
    /// 4.7 ms ahead as received (at 800 kHz, emulator-speed glass-sim): a
    /// frame shorter than the 30 ms tick and not much longer than a sample
    /// period at 100 Hz.
    @Test(arguments: [100 as UInt64, 1_000], [28_000 as UInt32, 13_000])
    func readyAndTheNewestUsefulSampleAreReadInTime(rate: UInt64, frame: UInt32) throws {
        var c = HostDriver.Configuration()
        c.refreshMicros = 3_600_000_000  // no live view: only the link wakes the loop
        var h = DriverHarness(configuration: c)
        h.start()
        let samples = BoardStream.samples(rateHz: rate, seconds: 3)
        let lead: UInt32 = frame == 28_000 ? 6_000 : 4_700
        let readies = Self.readies(frameMicros: frame, leadMicros: lead, seconds: 3)
        for (t, b) in (samples + readies).sorted(by: { $0.0 < $1.0 }) { h.link.schedule(b, at: t) }
        h.run(until: 3_200_000)
        #expect(h.link.dropped == 0)
        #expect(h.driver.session.viewWatch != .off, "the board said READY: frame sync is on")

        // Once the cadence is known (from the third READY on; with 13 ms
        // frames from the sixth: the first READY is read at the next tick, as
        // nothing says frame sync is on before it, and the expectation anchored
        // on that late read stays late for three frames): each READY is read
        // within a sample period of its arrival (a doze that ended at the next
        // tick would read it up to 30 ms late), and every sample that arrived
        // 4 ms or more before the latch is read in time for an OFFSETS (15
        // bytes at the line's 11 520 B/s: 1.3 ms) to cross before it, so the
        // view the board takes is from the newest sample the line allowed.
        let period = 1_000_000 / rate
        var late: [String] = []
        for (n, ready) in readies.enumerated().dropFirst(frame == 28_000 ? 2 : 5) {
            let latchHost = ready.0 + UInt64(lead) - 50  // where a sample stamped at the latch arrives
            if !h.reads.contains(where: { $0 >= ready.0 && $0 <= ready.0 + period }) {
                late.append("READY \(n) at \(ready.0) µs not read within \(period) µs")
            }
            let due = samples.map(\.0).filter { $0 > latchHost - UInt64(frame) && $0 <= latchHost - 4_000 }
            if let newest = due.last, !h.reads.contains(where: { $0 >= newest && $0 <= latchHost - 1_302 }) {
                late.append("READY \(n): the sample of \(newest) µs not read by \(latchHost - 1_302) µs")
            }
        }
        #expect(late.count == 0, "\(late.prefix(8))")
    }

    /// At 1 kHz the loop still sleeps between frames: per 28 ms frame, one
    /// wake-up per sample of the 2 ms it wakes before READY is due, one for
    /// READY, one to read the view's sample before the latch, one for the
    /// tick and two spare: not one per sample (28).
    @Test func betweenFramesTheLoopStillDozes() {
        var c = HostDriver.Configuration()
        c.refreshMicros = 3_600_000_000
        var h = DriverHarness(configuration: c)
        h.start()
        let samples = BoardStream.samples(rateHz: 1_000, seconds: 3)
        let readies = Self.readies(frameMicros: 28_000, leadMicros: 6_000, seconds: 3)
        for (t, b) in (samples + readies).sorted(by: { $0.0 < $1.0 }) { h.link.schedule(b, at: t) }
        h.run(until: 1_000_000)
        let before = h.wakeUps
        h.run(until: 2_960_000)
        let frames = Double(1_960_000) / 28_000
        let perFrame = Double(h.wakeUps - before) / frames
        #expect(perFrame <= 2 + 1 + 1 + 1 + 2, "\(perFrame) wake-ups a frame")
        #expect(h.dozes > 0)
    }
}
