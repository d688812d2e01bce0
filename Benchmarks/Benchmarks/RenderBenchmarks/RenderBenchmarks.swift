import Benchmark
import TiltCore
import TiltDisplay

// Cost of one 128x64 frame from ScreenRenderer (docs/perf/render.md). Each
// measured iteration renders 1000 frames (scalingFactor .kilo); the tool reports
// figures per frame.
// The art is synthetic but the shipped sizes (256x128 tile, 12x36 ribbon), so the
// benchmark does not need the TiltAssets bundle.
let benchmarks: @Sendable () -> Void = {
    let tile = try! ContentTile(bitmap: Bitmap(width: 256, height: 128,
        pixels: (0..<(256 * 128)).map { i in UInt8((i * 2654435761 >> 7) & 1) })!)
    let ribbon = try! RibbonArt(mask: AlphaMask(width: 12, height: 36,
        alpha: (0..<(12 * 36)).map { i in i % 12 == 0 || i % 12 == 11 ? 128 : (i / 12 > 30 ? 0 : 255) })!)
    let renderer = ScreenRenderer(tile: tile, ribbon: ribbon)

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3))

    // Unaligned rows (vy % 8 != 0) and the ribbon on screen: the slowest path.
    Benchmark("ScreenRenderer.render, unaligned rows, ribbon on screen") { benchmark in
        var screen = Screen()
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            let step = UInt16(truncatingIfNeeded: i)
            renderer.render(viewportX: step &* 3, viewportY: 5 &+ step, ribbonX: (step &* 3) &+ 60,
                            ribbonBottom: 5 &+ step &+ 40, into: &screen)
            blackHole(screen.bytes[Int(step) & 1023])
        }
    }

    Benchmark("ScreenRenderer.render, page-aligned rows, no ribbon") { benchmark in
        var screen = Screen()
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            let step = UInt16(truncatingIfNeeded: i)
            renderer.render(viewportX: step, viewportY: 8 &* (step & 31), ribbonX: 0, ribbonBottom: 0, into: &screen)
            blackHole(screen.bytes[Int(step) & 1023])
        }
    }
}
