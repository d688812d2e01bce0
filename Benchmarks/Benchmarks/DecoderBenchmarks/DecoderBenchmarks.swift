import Benchmark
import TiltCore
import WireProtocol

// Decoder throughput and allocations. Figures: docs/perf/decoder.md.
// Run: cd Benchmarks && swift package benchmark --target DecoderBenchmarks

/// Frames per stream; one benchmark iteration decodes the whole stream.
let framesPerStream = 10_000

/// SAMPLE frames at 1 kHz with 1 % of the frames damaged (a bit flip, a
/// dropped byte or a short garbage run, in turn), fed in 512-byte reads:
/// 230 117 bytes, 9 900 frames decode.
let damagedStream: [UInt8] = {
    var stream: [UInt8] = []
    HelloFrame(
        firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, accelFullScaleSelect: 0, gyroFullScaleSelect: 0,
        sampleRateHz: 1000, contentTileID: 0, status: 3
    ).encode(into: &stream)
    var wire: [UInt8] = []
    for index in 0..<framesPerStream {
        wire.removeAll(keepingCapacity: true)
        let raw = RawSample(
            accel: Axes3(x: Int16(truncatingIfNeeded: index % 700 - 350), y: 120, z: 16384 - Int16(index % 50)),
            temperature: -1600, gyro: Axes3(x: 3, y: -2, z: Int16(truncatingIfNeeded: index % 90)))
        SampleFrame(sequence: UInt8(truncatingIfNeeded: index), boardTime: UInt32(truncatingIfNeeded: index * 1000), raw: raw)
            .encode(into: &wire)
        if index % 100 == 50 {
            switch index / 100 % 3 {
            case 0: wire[7] ^= 0x04
            case 1: wire.remove(at: 9)
            default: wire.insert(contentsOf: [0x55, 0x00, 0x13, 0x77], at: 5)
            }
        }
        stream += wire
    }
    precondition(stream.count == 230_117, "benchmark stream changed: update docs/perf/decoder.md")
    return stream
}()

let i2cdevlibText: [UInt8] = {
    var text = Array("Initializing I2C devices...\r\nTesting device connections...\r\nMPU6050 connection successful\r\n".utf8)
    for index in 0..<framesPerStream {
        text += Array("a/g:\t\(index % 700 - 350)\t120\t\(16384 - index % 50)\t3\t-2\t\(index % 90)\r\n".utf8)
    }
    return text
}()

let benchmarks: @Sendable () -> Void = {
    againstCBenchmarks()
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .instructions]

    // The harness's own allocations per iteration: subtract from the others.
    Benchmark("Baseline: empty iteration", configuration: .init(metrics: metrics, maxDuration: .seconds(2))) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(benchmark) }
    }

    Benchmark(
        "FrameDecoder 10k SAMPLE frames, 1 % damaged, 512 B reads",
        configuration: .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 100_000)
    ) { benchmark in
        let stream = damagedStream
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var decoder = FrameDecoder()
            var checksum: UInt64 = 0
            stream.withUnsafeBytes { bytes in
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + 512)
                    decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) { frame in
                        if case .sample(let sample) = frame { checksum &+= sample.timeMicros &+ UInt64(UInt16(bitPattern: sample.raw.accel.x)) }
                    }
                    start = end
                }
            }
            precondition(decoder.counters.samplesDecoded == 9_900, "unexpected decode count")
            blackHole(checksum)
        }
    }

    Benchmark(
        "SampleFrame encode 10k frames into a reused buffer",
        configuration: .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 100_000)
    ) { benchmark in
        var output: [UInt8] = []
        output.reserveCapacity(framesPerStream * 23)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            output.removeAll(keepingCapacity: true)
            for index in 0..<framesPerStream {
                SampleFrame(
                    sequence: UInt8(truncatingIfNeeded: index), boardTime: UInt32(index),
                    raw: RawSample(accel: Axes3(x: Int16(truncatingIfNeeded: index), y: 0, z: 16384))
                ).encode(into: &output)
            }
            blackHole(output.count)
        }
    }

    Benchmark(
        "I2CDevLibReader 10k a/g lines",
        configuration: .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 100_000)
    ) { benchmark in
        let text = i2cdevlibText
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var reader = I2CDevLibReader()
            var checksum = 0
            text.withUnsafeBytes { bytes in
                reader.feed(bytes, receivedAt: .zero) { checksum &+= Int($0.raw.accel.z) }
            }
            precondition(reader.counters.samples == UInt64(framesPerStream))
            blackHole(checksum)
        }
    }
}
