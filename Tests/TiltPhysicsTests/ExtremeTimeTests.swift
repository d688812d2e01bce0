import Testing
import TiltCore
@testable import TiltPhysics

/// No board time traps the engine: a replayed or damaged file may carry any UInt64.
@Suite struct ExtremeTimeTests {
    static let level = RawSample(accel: Axes3(x: 0, y: 0, z: 16384))

    func sample(_ t: UInt64) -> TimedSample { TimedSample(timeMicros: t, sequence: 0, raw: Self.level) }

    @Test(arguments: [IntegratorMode.smooth, .recipe])
    func anyTimeIsSafeAndTicksNeverGoBack(mode: IntegratorMode) {
        let max = UInt64.max
        let runs: [[UInt64]] = [
            [0, max], [max - 5, max], [max], [max, max, 0], [1 << 63, (1 << 63) + 1_000_000, max - 1],
            Array(stride(from: max - 200_000, to: max, by: 1_000)) + [max],
        ]
        for times in runs {
            var engine = Fixtures.engine { $0.mode = mode }
            var ticks: [Tick] = []
            for t in times { engine.ingest(sample(t)) { ticks.append($0) } }
            #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0.timeMicros <= $1.timeMicros }, "\(times.prefix(3))")
            #expect(ticks.count <= Int(TickClock.maxCatchUpTicks) * times.count + times.count)
        }
    }

    @Test func theClockSaturatesAtTheEndOfTime() {
        var clock = TickClock(periodMicros: 30_000)
        clock.start(at: .max - 10)
        #expect(clock.nextMicros == .max)
        clock.advance()
        #expect(clock.nextMicros == .max)
        clock.limitCatchUp(before: .max)
        #expect(clock.nextMicros == .max)
        var early = TickClock(periodMicros: 30_000)
        early.start(at: 0)
        early.limitCatchUp(before: .max)
        #expect(early.nextMicros <= UInt64.max - 999 * 30_000)
    }
}
