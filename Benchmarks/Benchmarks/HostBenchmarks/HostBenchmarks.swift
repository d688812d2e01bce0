// The host's latency and CPU cost over a pty. Figures: docs/perf/host.md.
// Run: cd Benchmarks && swift package benchmark --target HostBenchmarks
//
// - "host round trip": the board (this thread) writes the SAMPLE that completes a
//   tick; tiltserial's HostRunner (its own thread, the real run loop) decodes it,
//   runs the physics and writes that tick's OFFSETS; the board reads it back.
//   One iteration = one round trip.
// - "bare echo round trip": the same, but the other end is a bare read-and-echo
//   loop (wait, read, write 15 bytes per frame) on the same kind of pty: the floor.
// - "host CPU at 1 kHz": 10 s of SAMPLE frames paced at 1 kHz (absolute-time
//   sleeps on the board side); the host thread's user+system CPU (CLOCK_THREAD_CPUTIME_ID) is reported as per mille of one core.
import Benchmark
import Foundation
import SerialIO
import TiltCore
import TiltPhysics
import TiltPipeline
import TiltserialCommand
import WireProtocol

/// The board side of a pty: writes frames, reads until a frame delimiter.
final class Board {
    let pty: PseudoTerminal
    var sequence: UInt8 = 0
    var time: UInt32 = 1000
    var wire: [UInt8] = []
    var inbox = [UInt8](repeating: 0, count: 256)

    init() throws { pty = try PseudoTerminal.open() }

    func send(_ bytes: [UInt8]) { bytes.withUnsafeBytes { try! pty.master.write($0) } }

    /// Writes the next SAMPLE, 1 ms after the previous.
    func sendSample() {
        wire.removeAll(keepingCapacity: true)
        let raw = RawSample(accel: Axes3(x: Int16(Int(time / 1000) % 700 - 350), y: 3000, z: -12000))
        SampleFrame(sequence: sequence, boardTime: time, raw: raw).encode(into: &wire)
        sequence &+= 1
        time &+= 1000
        send(wire)
    }

    /// Reads until a 0x00 (the end of one frame; COBS frames hold no other zero).
    func readFrame() {
        while true {
            _ = try! pty.master.waitReadable(timeout: .seconds(5))
            let n = inbox.withUnsafeMutableBytes { try! pty.master.read(into: $0) }
            if inbox[0..<n].contains(0) { return }
        }
    }
}

/// A loop on its own thread that stops when `stop` is woken and reports the
/// CPU time (user + system) its thread used.
class MeasuredLoop: @unchecked Sendable {
    let stop = try! WakeUpPipe()
    private let finished = DispatchSemaphore(value: 0)
    private var cpuMicros: UInt64 = 0

    /// Runs `body` on a new thread; `body` returns once `stop` is woken.
    func start(_ body: @escaping @Sendable (WakeUpPipe) -> Void) {
        let stop = self.stop
        let ready = DispatchSemaphore(value: 0)
        Thread { [self] in
            pthread_getcpuclockid(pthread_self(), &threadClock)
            ready.signal()
            let before = Self.threadCPU()
            body(stop)
            cpuMicros = Self.threadCPU() - before
            finished.signal()
        }.start()
        ready.wait()
    }

    /// The loop thread's CPU time so far, µs (its thread's clock, read from here).
    func cpuSoFar() -> UInt64 {
        var t = timespec()
        guard clock_gettime(threadClock, &t) == 0 else { return 0 }
        return UInt64(t.tv_sec) * 1_000_000 + UInt64(t.tv_nsec) / 1000
    }
    private var threadClock = clockid_t(0)

    /// Stops the loop; its thread's CPU time in µs.
    func shutdown() -> UInt64 {
        stop.wake()
        finished.wait()
        return cpuMicros
    }

    static func threadCPU() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)  // this thread's user + system time
        return UInt64(t.tv_sec) * 1_000_000 + UInt64(t.tv_nsec) / 1000
    }
}

/// tiltserial's run loop on its own thread, on the slave of `board`'s pty.
final class RunningHost: MeasuredLoop, @unchecked Sendable {
    init(port: String, tickMicros: Int, doze: Bool = true) {
        var settings = HostSettings()
        settings.physics.tickMicros = tickMicros
        settings.helloTimeoutMicros = 60_000_000
        var options = HostRunOptions(port: port, settings: settings)
        if !doze { options.timing.dozeMarginMicros = nil }
        let fixed = options
        super.init()
        start { stop in
            let runner = try! HostRunner(options: fixed, output: Silent())
            _ = try? runner.run(stop: stop)
        }
    }
}

/// An output that drops everything: the loop's own cost, no printing.
final class Silent: HostOutput {
    func event(_ event: HostEvent) {}
    func news(_ news: HostNews) {}
}

/// A bare loop answering 15 bytes per received frame, on the slave of a pty.
final class EchoLoop: MeasuredLoop, @unchecked Sendable {
    init(port: String) {
        let transport = try! SerialPort.open(path: port)
        super.init()
        start { stop in
            var buffer = [UInt8](repeating: 0, count: 4096)
            let reply = [UInt8](repeating: 0x41, count: 14) + [0]
            loop: while true {
                switch try! transport.wait(timeout: nil, orWakeUp: stop.readEnd) {
                case .wokenUp: break loop
                case .timedOut: continue
                case .readable:
                    let n = buffer.withUnsafeMutableBytes { try! transport.read(into: $0) }
                    for byte in buffer[0..<n] where byte == 0 { reply.withUnsafeBytes { try! transport.write($0) } }
                }
            }
            transport.close()
        }
    }
}

let hello = HelloFrame(firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, accelFullScaleSelect: 0, gyroFullScaleSelect: 0,
                       sampleRateHz: 1000, contentTileID: 0, status: 3).encoded()

/// Sleeps until 1 ms after the previous call (absolute time: no drift).
nonisolated(unsafe) var pace = timespec()

/// One pty and its far end, kept across a benchmark's iterations (set up and torn down by the benchmark).
nonisolated(unsafe) var fixture: (board: Board, shutdown: () -> UInt64)?

func startHost(tickMicros: Int, doze: Bool = true) {
    let board = try! Board()
    let host = RunningHost(port: board.pty.slavePath, tickMicros: tickMicros, doze: doze)
    board.readFrame()  // HOST_HELLO
    board.send(hello)
    board.sendSample()  // starts the tick clock
    fixture = (board, host.shutdown)
    pace = timespec()  // pacing starts now
}

func startEcho() {
    let board = try! Board()
    let echo = EchoLoop(port: board.pty.slavePath)
    fixture = (board, echo.shutdown)
}

func stopFixture() {
    _ = fixture?.shutdown()
    fixture?.board.pty.close()
    fixture = nil
}

/// Sleeps until 1 ms after the previous call (absolute time: no drift).
func waitForNextMillisecond() {
    if pace.tv_sec == 0 { clock_gettime(CLOCK_MONOTONIC, &pace) }
    pace.tv_nsec += 1_000_000
    if pace.tv_nsec >= 1_000_000_000 { pace.tv_nsec -= 1_000_000_000; pace.tv_sec += 1 }
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &pace, nil)
}

/// 10 000 SAMPLE frames at 1 kHz after a HELLO, as the wire carries them.
let sessionStream: [UInt8] = {
    var wire = hello
    for i in 0..<10_000 {
        let raw = RawSample(accel: Axes3(x: Int16(i % 700 - 350), y: 3000, z: Int16(-12000 + i % 900)))
        SampleFrame(sequence: UInt8(truncatingIfNeeded: i), boardTime: UInt32(1000 + i * 1000), raw: raw).encode(into: &wire)
    }
    return wire
}()

let benchmarks: @Sendable () -> Void = {
    interleavedBenchmarks()

    // The pure pipeline alone: bytes → frames → physics → OFFSETS, in 64-byte reads.
    // Steady state must not allocate (the first chunk's format detection does, once).
    Benchmark("HostSession: 10k SAMPLE frames → OFFSETS, 64 B chunks",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal, .throughput], warmupIterations: 3, maxDuration: .seconds(5))) { benchmark in
        let art = AlphaMask(width: 12, height: 36, alpha: [UInt8](repeating: 255, count: 12 * 36))!
        let engine = try! TiltEngine(geometry: ContentGeometry(tileWidth: 256, tileHeight: 128), ribbonArt: art)
        var session = HostSession(engine: engine, hostTileID: nil)
        var ticks = 0
        sessionStream.withUnsafeBytes { bytes in
            // Detection outside the measurement: its buffer is the only allocation.
            session.receive(UnsafeRawBufferPointer(rebasing: bytes[0..<64]), at: .zero) { _ in }
            benchmark.startMeasurement()
            var start = 64
            while start < bytes.count {
                let end = min(bytes.count, start + 64)
                session.receive(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), at: .zero) { event in
                    if case .tick(_, let offsets) = event { ticks += offsets.wire.count }
                }
                start = end
            }
            benchmark.stopMeasurement()
        }
        blackHole(ticks)
    }

    let roundTrip = Benchmark.Configuration(
        metrics: [.wallClock], warmupIterations: 200, maxDuration: .seconds(10), maxIterations: 20_000)

    // Back to back, every sample completing a tick (1 ms ticks): the host's own cost per round trip.
    Benchmark("host round trip: SAMPLE completing a tick → its OFFSETS",
              configuration: roundTrip, closure: { benchmark in
        let board = fixture!.board
        benchmark.startMeasurement()
        board.sendSample()
        board.readFrame()
        benchmark.stopMeasurement()
    }, setup: { startHost(tickMicros: 1000) }, teardown: { stopFixture() })

    Benchmark("bare echo round trip: 22 B frame → 15 B reply",
              configuration: roundTrip, closure: { benchmark in
        let board = fixture!.board
        benchmark.startMeasurement()
        board.sendSample()
        board.readFrame()
        benchmark.stopMeasurement()
    }, setup: { startEcho() }, teardown: { stopFixture() })

    // The real cadence: samples at 1 kHz, a tick every 30 ms; only the sample that
    // completes the tick is timed. With and without dozing between ticks.
    for doze in [true, false] {
        Benchmark("host tick latency at 1 kHz, 30 ms ticks\(doze ? "" : ", never dozing")",
                  configuration: .init(metrics: [.wallClock], warmupIterations: 5, maxDuration: .seconds(10), maxIterations: 300),
                  closure: { benchmark in
            let board = fixture!.board
            var drain = [UInt8](repeating: 0, count: 256)
            while (drain.withUnsafeMutableBytes { try! board.pty.master.read(into: $0) }) > 0 {}
            // Board times run from 1000 µs; the first sample (1000) starts the clock, ticks at 31000, 61000, ...
            while (board.time - 1000) % 30_000 != 0 {
                waitForNextMillisecond()
                board.sendSample()
            }
            waitForNextMillisecond()
            benchmark.startMeasurement()
            board.sendSample()
            board.readFrame()
            benchmark.stopMeasurement()
        }, setup: { startHost(tickMicros: 30_000, doze: doze) }, teardown: { stopFixture() })
    }

    let cpuMetric = BenchmarkMetric.custom("CPU ‰ of a core", polarity: .prefersSmaller, useScalingFactor: false)
    for variant in ["host", "bare echo"] {
        Benchmark("\(variant) CPU at 1 kHz for 10 s",
                  configuration: .init(metrics: [cpuMetric], warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 1)) { benchmark in
            let board = try! Board()
            let shutdown: () -> UInt64
            if variant == "host" {
                let host = RunningHost(port: board.pty.slavePath, tickMicros: 30_000)
                board.readFrame()  // HOST_HELLO
                board.send(hello)
                shutdown = host.shutdown
            } else {
                let echo = EchoLoop(port: board.pty.slavePath)
                shutdown = echo.shutdown
            }
            let samples = 10_000
            _ = paced(board, milliseconds: samples, cpu: { 0 })
            let cpu = shutdown()
            benchmark.measurement(cpuMetric, Int((Double(cpu) / Double(samples * 1000) * 1000).rounded()))
            print("\(variant) CPU: \(cpu) µs over \(samples) ms of 1 kHz input = \(String(format: "%.2f", Double(cpu) / Double(samples * 10))) % of a core")
            board.pty.close()
        }
    }
}
