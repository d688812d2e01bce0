// Cost per sample of the tilt integrator plus the ribbon detector.
// Run: cd Benchmarks && swift package benchmark --target PhysicsBenchmarks
// One benchmark iteration = 1000 samples; the table's scaled (*) figures are per
// sample.
import Benchmark
import Foundation
import TiltCore
import TiltMotion
import TiltPhysics

/// A wandering hand with a pull into the ribbon, sampled at 1 kHz: pitch swings
/// through rest and forward past it, roll wanders.
func samples(count: Int, periodMicros: UInt64) -> [TimedSample] {
    (0..<count).map { i in
        let t = Double(UInt64(i) * periodMicros) / 1e6
        // 60° ± 25° from face-up (the host's convention) is 30° ∓ 25° back (`Pose`'s).
        let pose = Pose(back: 30 - 25 * sin(2 * .pi * t / 0.7), right: 10 * sin(2 * .pi * t / 0.5))
        return TimedSample(
            timeMicros: UInt64(i) * periodMicros, sequence: UInt8(truncatingIfNeeded: i),
            raw: RawSample(accel: pose.accelCounts()))
    }
}

func engine(_ mode: IntegratorMode, drawerItems: Int = 0) -> TiltEngine {
    var settings = PhysicsSettings()
    settings.mode = mode
    settings.ribbonCenterX = 64  // the ribbon under the grab point at viewport x 0
    let art = AlphaMask(width: 12, height: 36, alpha: [UInt8](repeating: 255, count: 12 * 36))!
    let geometry = ContentGeometry(displayWidth: 128, displayHeight: 64, tileWidth: 256, tileHeight: 128)
    return try! TiltEngine(settings: settings, geometry: geometry, ribbonArt: art, drawerItems: drawerItems)
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(3))
    // 1 kHz: one tick per 30 samples (the per-sample cost a fast board pays).
    // 33.3 Hz: one tick per sample (the per-tick cost, ribbon included).
    let inputs = [(samples(count: 1000, periodMicros: 1000), "1000 samples at 1 kHz"),
                  (samples(count: 1000, periodMicros: 30000), "1000 samples at 33.3 Hz, a tick each")]

    // With the drawer (8 items, as the host has it): the pulls open and close it,
    // the swings scroll its row and pull items out, the gesture is tracked.
    for mode in IntegratorMode.allCases {
        for (input, name) in inputs {
            for items in [0, 8] {
            let template = engine(mode, drawerItems: items)
            let label = items == 0 ? "TiltEngine \(mode): \(name)" : "TiltEngine \(mode), drawer: \(name)"
            Benchmark(label, configuration: configuration) { benchmark in
                var e = template
                var fired = 0
                benchmark.startMeasurement()
                for i in benchmark.scaledIterations {
                    e.ingest(input[i]) { tick in
                        if tick.fired { fired += 1 }
                        blackHole(tick)
                    }
                }
                benchmark.stopMeasurement()
                blackHole(fired)
            }
            }
        }
    }
}
