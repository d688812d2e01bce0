// The Swift decoder against a bare C yardstick, interleaved: the firmware's own
// receiver (FirmwareCore's tilt_rx_push, one byte at a time: COBS, CRC) plus
// tilt_decode_sample on each frame, over the same damaged stream in the same
// 512-byte reads. Rounds alternate which goes first; reported is the median of
// the per-round time ratios (Swift / C) with its spread. The C loop does less:
// no sequence tracking, no time unwrapping, no recovery of frames in damaged
// runs, no typed frames delivered.
import Benchmark
import FirmwareCore
import Foundation
import SerialIO
import WireProtocol

/// One pass of the Swift decoder over `stream`; the samples it delivered.
func swiftPass(_ stream: UnsafeRawBufferPointer) -> UInt64 {
    var decoder = FrameDecoder()
    var checksum: UInt64 = 0
    var start = 0
    while start < stream.count {
        let end = min(stream.count, start + 512)
        decoder.feed(UnsafeRawBufferPointer(rebasing: stream[start..<end])) { frame in
            if case .sample(let sample) = frame { checksum &+= sample.timeMicros &+ UInt64(UInt16(bitPattern: sample.raw.accel.x)) }
        }
        start = end
    }
    precondition(decoder.counters.samplesDecoded == 9_900)
    return checksum
}

/// One pass of the firmware's C receiver over `stream`; the samples it decoded.
func cPass(_ stream: UnsafeRawBufferPointer) -> UInt64 {
    var rx = tilt_rx()
    tilt_rx_reset(&rx)
    var sample = tilt_sample()
    var checksum: UInt64 = 0, samples = 0
    var payload: UnsafePointer<UInt8>?
    var length: UInt8 = 0
    let bytes = stream.bindMemory(to: UInt8.self)
    for byte in bytes where tilt_rx_push(&rx, byte, &payload, &length) == TILT_RX_FRAME {
        if tilt_decode_sample(payload, length, &sample) {
            samples += 1
            checksum &+= UInt64(sample.time_us) &+ UInt64(sample.raw.0)
        }
    }
    precondition(samples >= 9_800)
    return checksum
}

let againstCBenchmarks: @Sendable () -> Void = {
    let ratio = BenchmarkMetric.custom("Swift / C time ×1000 (median of rounds)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark("FrameDecoder against the firmware's C receiver, interleaved",
              configuration: .init(metrics: [ratio], warmupIterations: 0, maxDuration: .seconds(120), maxIterations: 1)) { benchmark in
        damagedStream.withUnsafeBytes { stream in
            func time(_ pass: (UnsafeRawBufferPointer) -> UInt64, passes: Int) -> UInt64 {
                let start = MonotonicClock.nanos()
                for _ in 0..<passes { blackHole(pass(stream)) }
                return MonotonicClock.nanos() - start
            }
            _ = time(swiftPass, passes: 20)  // warm-up
            _ = time(cPass, passes: 20)
            var ratios: [Double] = [], swiftNanos: [UInt64] = [], cNanos: [UInt64] = []
            for round in 0..<30 {
                let swiftFirst = round % 2 == 0
                let a = time(swiftFirst ? swiftPass : cPass, passes: 50)
                let b = time(swiftFirst ? cPass : swiftPass, passes: 50)
                let (s, c) = swiftFirst ? (a, b) : (b, a)
                swiftNanos.append(s / 50); cNanos.append(c / 50)
                ratios.append(Double(s) / Double(c))
            }
            let sorted = ratios.sorted()
            let median = sorted[sorted.count / 2]
            benchmark.measurement(ratio, Int((median * 1000).rounded()))
            let swiftPerPass = swiftNanos.sorted()[swiftNanos.count / 2], cPerPass = cNanos.sorted()[cNanos.count / 2]
            print(String(format: "Swift / C: median %.2f× (min %.2f, max %.2f, 30 rounds); per 10 k frames: Swift %.0f µs (%.1f M frames/s), C %.0f µs (%.1f M frames/s)",
                         median, sorted.first!, sorted.last!, Double(swiftPerPass) / 1000, 10_000 / Double(swiftPerPass) * 1000,
                         Double(cPerPass) / 1000, 10_000 / Double(cPerPass) * 1000))
        }
    }
}
