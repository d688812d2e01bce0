// Serial round-trip latency through a pty. Figures: docs/perf/serial.md.
// Run: cd Benchmarks && swift package benchmark --target SerialLatencyBenchmarks
//
// The host writes 20 bytes to a pty slave; a "board" thread (plain poll/read/write
// on the master) answers 10 bytes once 20 have arrived; the host waits and reads
// until the 10 are in. One iteration = one round trip. Two hosts: raw poll+read on
// the slave (the floor) and SerialIO's TermiosTransport (what tiltserial uses).
// LibSerialPortTransport needs the test interposer (Tests/CPtyInterposer) to accept
// a pty, so it is not measured here; see docs/perf/serial.md.
import Benchmark
import Foundation
import SerialIO

let request = 20, reply = 10

/// The board side, in raw syscalls on its own thread: every 20 bytes received,
/// answer 10. Ends when `stop` is woken.
final class EchoBoard: @unchecked Sendable {
    let pty: PseudoTerminal
    let stop = try! WakeUpPipe()
    let finished = DispatchSemaphore(value: 0)

    init() throws {
        pty = try PseudoTerminal.open()
        let fd = pty.master.fileDescriptor.rawValue, stopFD = stop.readEnd.rawValue, finished = self.finished
        Thread {
            var pending = 0
            var buffer = [UInt8](repeating: 0, count: 256)
            let answer = [UInt8](repeating: 0x42, count: reply)
            while true {
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
                _ = poll(&fds, 2, -1)
                if fds[1].revents != 0 || fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { break }
                pending += buffer.withUnsafeMutableBytes { max(0, read(fd, $0.baseAddress, $0.count)) }
                while pending >= request {
                    pending -= request
                    _ = answer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                }
            }
            finished.signal()
        }.start()
    }

    func shutdown() {
        stop.wake()
        finished.wait()
        pty.close()
    }
}

let out = [UInt8](repeating: 0x41, count: request)
nonisolated(unsafe) var inbox = [UInt8](repeating: 0, count: 64)

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 100,
        maxDuration: .seconds(5), maxIterations: 20_000)

    Benchmark("pty round trip (20 B out, 10 B back): raw poll+read", configuration: configuration) { benchmark in
        let board = try! EchoBoard()
        let fd = open(board.pty.slavePath, O_RDWR | O_NONBLOCK | O_NOCTTY)
        var t = termios()
        tcgetattr(fd, &t)
        cfmakeraw(&t)
        tcsetattr(fd, TCSANOW, &t)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            _ = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            var got = 0
            while got < reply {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 5000)
                got += inbox.withUnsafeMutableBytes { max(0, read(fd, $0.baseAddress, $0.count)) }
            }
        }
        benchmark.stopMeasurement()
        close(fd)
        board.shutdown()
    }

    Benchmark("pty round trip (20 B out, 10 B back): TermiosTransport", configuration: configuration) { benchmark in
        let board = try! EchoBoard()
        let host = try! SerialPort.open(path: board.pty.slavePath)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            out.withUnsafeBytes { try! host.write($0) }
            var got = 0
            while got < reply {
                _ = try! host.waitReadable(timeout: .seconds(5))
                got += inbox.withUnsafeMutableBytes { try! host.read(into: $0) }
            }
        }
        benchmark.stopMeasurement()
        host.close()
        board.shutdown()
    }
}
