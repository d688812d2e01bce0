// Host against the bare echo loop, interleaved: both run at once on their own
// ptys, and rounds alternate A and B (ABBA...) within one benchmark, so load
// from other work on this shared machine hits both alike. Reported: the median
// of the per-round ratios and their spread (min–max), as docs/perf/host.md quotes.
import Benchmark
import Foundation
import SerialIO

/// Median and spread of per-round ratios.
struct RatioSummary: CustomStringConvertible {
    let ratios: [Double]
    var median: Double { ratios.sorted()[ratios.count / 2] }
    var description: String {
        String(format: "median %.2f× (min %.2f, max %.2f, %d rounds)", median, ratios.min()!, ratios.max()!, ratios.count)
    }
}

func median(_ values: [UInt64]) -> UInt64 { values.sorted()[values.count / 2] }

func nowMicros() -> UInt64 { MonotonicClock.micros() }

/// One round of `count` back-to-back round trips on `board`; the median in µs.
func roundTrips(_ board: Board, count: Int) -> UInt64 {
    var times: [UInt64] = []
    times.reserveCapacity(count)
    for _ in 0..<count {
        let start = nowMicros()
        board.sendSample()
        board.readFrame()
        times.append(nowMicros() - start)
    }
    return median(times)
}

/// 1 kHz of samples for `milliseconds` to `board`'s far end; returns the far end's CPU in µs.
func paced(_ board: Board, milliseconds: Int, cpu: () -> UInt64) -> UInt64 {
    let before = cpu()
    var drain = [UInt8](repeating: 0, count: 4096)
    var next = timespec()
    clock_gettime(CLOCK_MONOTONIC, &next)
    for _ in 0..<milliseconds {
        next.tv_nsec += 1_000_000
        if next.tv_nsec >= 1_000_000_000 { next.tv_nsec -= 1_000_000_000; next.tv_sec += 1 }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nil)
        board.sendSample()
        while (drain.withUnsafeMutableBytes { try! board.pty.master.read(into: $0) }) > 0 {}
    }
    return cpu() - before
}

/// The host and the bare echo loop, each on its own pty, both running.
func startPair(tickMicros: Int) -> (Board, RunningHost, Board, EchoLoop) {
    let hostBoard = try! Board(), echoBoard = try! Board()
    let host = RunningHost(port: hostBoard.pty.slavePath, tickMicros: tickMicros)
    hostBoard.readFrame()  // HOST_HELLO
    hostBoard.send(hello)
    hostBoard.sendSample()  // starts the tick clock: from here on every sample completes a tick (1 ms ticks)
    return (hostBoard, host, echoBoard, EchoLoop(port: echoBoard.pty.slavePath))
}

let interleavedBenchmarks: @Sendable () -> Void = {
    let ratio = BenchmarkMetric.custom("ratio ×1000 (median of rounds)", polarity: .prefersSmaller, useScalingFactor: false)
    let once = Benchmark.Configuration(metrics: [ratio], warmupIterations: 0, maxDuration: .seconds(120), maxIterations: 1)

    Benchmark("interleaved round trip: host / bare echo", configuration: once) { benchmark in
        let (hostBoard, host, echoBoard, echo) = startPair(tickMicros: 1000)
        _ = roundTrips(hostBoard, count: 200)  // warm-up
        _ = roundTrips(echoBoard, count: 200)
        var ratios: [Double] = [], hostMedians: [UInt64] = [], echoMedians: [UInt64] = []
        for round in 0..<20 {
            let hostFirst = round % 2 == 0
            let a = roundTrips(hostFirst ? hostBoard : echoBoard, count: 500)
            let b = roundTrips(hostFirst ? echoBoard : hostBoard, count: 500)
            let (h, e) = hostFirst ? (a, b) : (b, a)
            hostMedians.append(h); echoMedians.append(e)
            ratios.append(Double(h) / Double(max(e, 1)))
        }
        _ = host.shutdown(); _ = echo.shutdown()
        let summary = RatioSummary(ratios: ratios)
        benchmark.measurement(ratio, Int((summary.median * 1000).rounded()))
        print("round trip, host / bare echo: \(summary); medians host \(median(hostMedians)) µs, echo \(median(echoMedians)) µs")
    }

    Benchmark("interleaved CPU at 1 kHz: host / bare echo", configuration: once) { benchmark in
        let (hostBoard, host, echoBoard, echo) = startPair(tickMicros: 30_000)
        var ratios: [Double] = [], hostCPU: UInt64 = 0, echoCPU: UInt64 = 0
        for round in 0..<8 {
            let hostFirst = round % 2 == 0
            let a = paced(hostFirst ? hostBoard : echoBoard, milliseconds: 2000, cpu: hostFirst ? host.cpuSoFar : echo.cpuSoFar)
            let b = paced(hostFirst ? echoBoard : hostBoard, milliseconds: 2000, cpu: hostFirst ? echo.cpuSoFar : host.cpuSoFar)
            let (h, e) = hostFirst ? (a, b) : (b, a)
            hostCPU += h; echoCPU += e
            ratios.append(Double(h) / Double(max(e, 1)))
        }
        _ = host.shutdown(); _ = echo.shutdown()
        let summary = RatioSummary(ratios: ratios)
        benchmark.measurement(ratio, Int((summary.median * 1000).rounded()))
        print("CPU at 1 kHz, host / bare echo: \(summary); host \(String(format: "%.2f", Double(hostCPU) / 160_000)) %, echo \(String(format: "%.2f", Double(echoCPU) / 160_000)) % of a core")
    }
}
