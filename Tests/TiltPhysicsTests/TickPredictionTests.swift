import Testing
import TiltCore
@testable import TiltPhysics

/// `TiltEngine.ticks(at:)` says exactly whether `ingest` will run a tick, for
/// in-order, repeated, late and far-jumping sample times (HostSession skips its
/// per-tick work on its word).
@Suite struct TickPredictionTests {
    @Test(arguments: [IntegratorMode.smooth, .recipe])
    func predictionMatchesIngest(mode: IntegratorMode) throws {
        var settings = PhysicsSettings()
        settings.mode = mode
        var engine = try TiltEngine(settings: settings, geometry: Fixtures.geometry, ribbonArt: Fixtures.ribbon)
        var generator = SplitMix64(seed: 0x71C4)  // seeded: a failure reproduces
        var t: UInt64 = 1_000
        var predictedTicks = 0
        for _ in 0..<20_000 {
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<80: t += UInt64.random(in: 0...2_000, using: &generator)     // steady, sometimes repeated
            case 80..<90: t = t > 5_000 ? t - 5_000 : 0                            // a late (out-of-order) stamp
            case 90..<99: t += 30_000                                              // exactly one period
            default: t += UInt64.random(in: 1...90_000_000, using: &generator)     // a jump (catch-up limit)
            }
            let predicted = engine.ticks(at: BoardTime(micros: t))
            var ran = 0
            engine.ingest(Axes3(x: Fixed(raw: 0), y: Fixed(raw: 0), z: Fixed(raw: -65536)), at: BoardTime(micros: t)) { _ in ran += 1 }
            #expect(predicted == (ran > 0), "at \(t): predicted \(predicted), ran \(ran)")
            if predicted { predictedTicks += 1 }
        }
        #expect(predictedTicks > 1_000, "the run ticked")
    }
}
