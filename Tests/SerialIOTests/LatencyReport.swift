import Foundation
import SerialIO
import Testing

/// Not a test of speed: a measurement, off by default. It prints round-trip latency
/// through a pty (host writes 20 bytes, a "board" thread answers 10) for raw
/// poll+read, TermiosTransport and LibSerialPortTransport, interleaved one by one so
/// the VM's drift hits all three alike. Figures go to docs/perf/serial.md.
///
///   SERIALIO_LATENCY_REPORT=1 swift test -c release --filter LatencyReport
@Suite("Latency report", .enabled(if: ProcessInfo.processInfo.environment["SERIALIO_LATENCY_REPORT"] != nil))
struct LatencyReport {
    static let request = 20, reply = 10, samples = 20_000

    @Test func roundTripThroughAPty() throws {
        let rawPty = try PseudoTerminal.open(), termiosPty = try PseudoTerminal.open(), spFixture = try PtyFixture()
        defer { rawPty.close(); termiosPty.close(); spFixture.close() }
        let stop = try WakeUpPipe()
        let echoes = [rawPty.master, termiosPty.master, spFixture.pty.master].map { master in
            onThread { echoBoard(master.fileDescriptor.rawValue, stop: stop.readEnd.rawValue) }
        }

        let rawFD = open(rawPty.slavePath, O_RDWR | O_NONBLOCK | O_NOCTTY)
        var t = termios()
        tcgetattr(rawFD, &t); cfmakeraw(&t)
        if ProcessInfo.processInfo.environment["SERIALIO_RAW_VMIN0"] != nil {
            withUnsafeMutableBytes(of: &t.c_cc) { $0[Int(VMIN)] = 0 }
        }
        tcsetattr(rawFD, TCSANOW, &t)
        let termiosHost = try SerialPort.open(path: termiosPty.slavePath)
        let spHost = try spFixture.openWithLibSerialPort()
        defer { Glibc.close(rawFD); termiosHost.close(); spHost.close() }

        let out = [UInt8](repeating: 0x41, count: Self.request)
        var inBuf = [UInt8](repeating: 0, count: 64)
        let rawRoundTrip = {
            _ = out.withUnsafeBytes { Glibc.write(rawFD, $0.baseAddress, $0.count) }
            var got = 0
            while got < Self.reply {
                var p = pollfd(fd: rawFD, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 5000)
                got += inBuf.withUnsafeMutableBytes { max(0, Glibc.read(rawFD, $0.baseAddress, $0.count)) }
            }
        }
        func transportRoundTrip(_ host: any SerialTransport) throws {
            try out.withUnsafeBytes { try host.write($0) }
            var got = 0
            while got < Self.reply {
                _ = try host.waitReadable(timeoutMicros: 5_000_000)
                got += try inBuf.withUnsafeMutableBytes { try host.read(into: $0) }
            }
        }
        let variants: [(String, () throws -> Void)] = [
            ("raw poll+read", rawRoundTrip),
            ("TermiosTransport", { try transportRoundTrip(termiosHost) }),
            ("LibSerialPortTransport", { try transportRoundTrip(spHost) }),
        ]
        // One round trip of each per step, in rotating order, so load spikes hit all alike.
        var samples = [[Int]](repeating: [], count: variants.count)
        for step in 0..<Self.samples {
            for k in 0..<variants.count {
                let v = (step + k) % variants.count
                let start = nanos()
                try variants[v].1()
                samples[v].append(nanos() - start)
            }
        }
        stop.wake()
        for echo in echoes { _ = try echo() }

        print("round trip (\(Self.request) B out, \(Self.reply) B back), \(Self.samples) samples each, µs:")
        for (v, (label, _)) in variants.enumerated() {
            let s = samples[v].sorted()
            func pct(_ p: Double) -> String { String(format: "%.1f", Double(s[Int(Double(s.count - 1) * p)]) / 1000) }
            print("  \(label.padding(toLength: 24, withPad: " ", startingAt: 0)) median \(pct(0.5))  p90 \(pct(0.9))  p99 \(pct(0.99))  max \(pct(1))")
        }
        #expect(samples.allSatisfy { $0.count == Self.samples })
    }
}

private func nanos() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
}

/// The board side, in raw syscalls: every 20 bytes received, answer 10. Ends when `stop` is readable.
private func echoBoard(_ fd: CInt, stop: CInt) -> Int {
    var pending = 0, replies = 0
    var buf = [UInt8](repeating: 0, count: 256)
    let answer = [UInt8](repeating: 0x42, count: LatencyReport.reply)
    while true {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, -1)
        if fds[1].revents != 0 || fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { return replies }
        pending += buf.withUnsafeMutableBytes { max(0, Glibc.read(fd, $0.baseAddress, $0.count)) }
        while pending >= LatencyReport.request {
            pending -= LatencyReport.request
            replies += 1
            _ = answer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        }
    }
}
