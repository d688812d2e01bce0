import Foundation
import Testing
import WireProtocol
@testable import BoardEmulator

/// The display's clock, a board setting (DISPLAY set-clock, `tiltserial setup
/// --display-clock`), on our firmware in simavr in simulated time: the
/// display's transfers run at the clock chosen (TWBR from the ATmega328P
/// datasheet's SCL = F_CPU / (16 + 2 TWBR)) and the glass draws faster; a
/// module that does not answer that fast keeps 400 kHz and still draws, and
/// one that does not answer at 400 kHz draws at 100 kHz.
@Suite struct DisplayClockTests {
    /// TWBR for `hz` on the 16 MHz board (prescaler 1).
    static func twbr(_ hz: Int) -> UInt8 { UInt8((16_000_000 / hz - 16) / 2) }

    @Test(arguments: [DisplayClock.kilohertz800, .megahertz1])
    func aFasterClockRunsTheDisplaysTransfersAtItAndTheGlassDrawsFaster(clock: DisplayClock) throws {
        let base = try GlassStatsTests.run(everyMicros: 8_000, endMicros: 1_300_000)
        let fast = try GlassStatsTests.run(everyMicros: 8_000, endMicros: 1_300_000, displayClock: clock)
        print("\(clock.label), a new view every 8 ms: \(fast.stats.line)")
        #expect(fast.parts.last?.displayClock == clock && fast.parts.last?.clockFellBack == false, "PARTS after set-clock: \(fast.parts)")
        #expect(base.stats.bus?.twbr == Self.twbr(400_000) && fast.stats.bus?.twbr == Self.twbr(clock.hertz),
                "TWBR \(String(describing: base.stats.bus?.twbr)) and \(String(describing: fast.stats.bus?.twbr))")
        let before = base.stats.summary.movingFramesPerSecond, after = fast.stats.summary.movingFramesPerSecond
        // Twice the clock halves the bus's share of a frame (about nine tenths
        // of it at 400 kHz); the loop's own time per frame stays, so a third
        // more frames at least.
        #expect(after >= before * 4 / 3, "\(after) frames/s at \(clock.label) against \(before) at 400 kHz")
    }

    @Test func aModuleThatDoesNotAnswerThatFastStaysAt400KilohertzAndDraws() throws {
        let run = try GlassStatsTests.run(everyMicros: 16_000, endMicros: 900_000, displayClock: .megahertz1,
                                          displayMaxClockHz: 400_000)
        let answer = try #require(run.parts.last)
        #expect(answer.displayClock == .kilohertz400 && answer.clockFellBack && answer.displayAddress == 0x3C, "\(answer)")
        #expect(run.stats.bus?.twbr == Self.twbr(400_000))
        #expect(run.stats.frames.count >= 10, "\(run.stats.frames.count) glass frames after the fall-back")
    }

    /// A bus too slow for fast mode (weak pull-ups, long wires), as a module
    /// that acknowledges at 100 kHz only: the board runs the display in
    /// standard mode, at start and after set-clock 400k, says so in PARTS,
    /// and the glass still draws. (It showed nothing: "display NOT answering".)
    @Test func aModuleThatAnswersOnlyInStandardModeDrawsAt100Kilohertz() throws {
        let run = try GlassStatsTests.run(everyMicros: 16_000, endMicros: 1_300_000, displayClock: .kilohertz400,
                                          displayMaxClockHz: 100_000)
        print("100 kHz, a new view every 16 ms: \(run.stats.line)")
        let answer = try #require(run.parts.last)
        #expect(answer.displayClock == .kilohertz100 && answer.clockFellBack && answer.displayAddress == 0x3C, "\(answer)")
        #expect(run.stats.bus?.twbr == Self.twbr(100_000), "TWBR \(String(describing: run.stats.bus?.twbr))")
        // About ten frames a second, the bus's limit at 100 kHz, within a tenth.
        #expect(run.stats.frames.count >= 8, "\(run.stats.frames.count) glass frames at 100 kHz")
        #expect(run.stats.summary.framesPerSecond >= run.stats.busLimitFramesPerSecond * 0.9, "\(run.stats.line)")
        // The sensor's reads still fit between the slower pieces: none lost.
        let gaps = zip(run.samples, run.samples.dropFirst()).filter { $1.sequence != $0.sequence &+ 1 }
        #expect(run.samples.count >= 100 && gaps.isEmpty, "\(run.samples.count) samples, gaps after \(gaps.map(\.0.sequence))")
        // Stored outright, 100 kHz is no fall-back.
        let stored = try GlassStatsTests.run(everyMicros: 16_000, endMicros: 600_000, displayClock: .kilohertz100)
        let chosen = try #require(stored.parts.last)
        #expect(chosen.displayClock == .kilohertz100 && !chosen.clockFellBack, "\(chosen)")
        #expect(stored.stats.bus?.twbr == Self.twbr(100_000))
    }

    /// At 8 MHz (the 3.3 V Pro Micro) the TWI tops out at F_CPU / 16 = 500 kHz:
    /// a stored 800k or 1m keeps 400 kHz (TWBR 2), says so in PARTS and draws.
    /// (The firmware goes to 400 kHz at once; without that it got there too,
    /// after a begin at TWBR 255, 15 kHz, had timed out.)
    @Test(arguments: [DisplayClock.kilohertz800, .megahertz1])
    func anEightMegahertzBoardKeeps400Kilohertz(clock: DisplayClock) throws {
        let firmware = try BuiltFirmware.tiltserial(for: .proMicro8MHz)
        let run = try GlassStatsTests.run(everyMicros: 16_000, endMicros: 900_000, firmwarePath: firmware, board: .proMicro8MHz,
                                          displayClock: clock)
        let answer = try #require(run.parts.last)
        #expect(answer.displayClock == .kilohertz400, "\(answer)")
        #expect(run.stats.bus?.twbr == 2, "SCL = 8 MHz / (16 + 2 · 2) = 400 kHz")
        #expect(run.stats.frames.count >= 10, "\(run.stats.frames.count) glass frames")
    }
}
