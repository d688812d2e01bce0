import Foundation
import Testing
import TiltCore
@testable import BoardEmulator
#if canImport(Glibc)
import Glibc
#endif

/// The test firmware Fixtures/twi_probe.c (`make fixtures`).
enum AVRTestFirmware {
    static func path() throws -> String { try BuiltFirmware.program("twi_probe").get() }
}

struct AVRTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A client on the pty slave, reading lines with deadlines (never sleeping).
final class AVRPtyClient {
    let fd: Int32
    private var buffer = [UInt8]()
    private(set) var sawHangup = false

    init(path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw AVRTestFailure("cannot open \(path): errno \(errno)") }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        let deadline = Date().addingTimeInterval(10)
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n > 0 { offset += n; continue }
            guard errno == EAGAIN, Date() < deadline else { throw AVRTestFailure("write failed: errno \(errno)") }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, 100)
        }
    }

    /// The next line (without "\n"), or nil at the deadline or on hangup.
    func readLine(timeout: TimeInterval = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, !sawHangup else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(min(remaining * 1000, 1000)) + 1)
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &chunk, chunk.count)
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
            } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                sawHangup = true  // EOF or EIO: the master went away
            }
        }
    }

    /// Reads lines until one satisfies `match`; nil at the deadline.
    func readLine(timeout: TimeInterval = 10, where match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = readLine(timeout: deadline.timeIntervalSinceNow) {
            if match(line) { return line }
        }
        return nil
    }
}

/// A motion source that writes the sample time into the reading:
/// accel x/y = high/low 16 bits of t (µs), z = +1 g; gyro and temperature fixed.
struct TimeStampMotionSource: MotionSource {
    func sample(atMicros t: UInt64) -> RawSample {
        RawSample(accel: Axes3(x: Int16(truncatingIfNeeded: t >> 16), y: Int16(truncatingIfNeeded: t), z: 16384),
                  temperature: -1234, gyro: Axes3(x: 1, y: 2, z: 3))
    }

    static func time(of sample: RawSample) -> UInt64 {
        UInt64(UInt16(bitPattern: sample.accel.x)) << 16 | UInt64(UInt16(bitPattern: sample.accel.y))
    }
}

extension String {
    /// The bytes of an "S<28 hex digits>" line.
    var sampleBytes: [UInt8]? {
        guard hasPrefix("S"), count == 29 else { return nil }
        let digits = Array(utf8.dropFirst())
        var bytes = [UInt8]()
        for i in stride(from: 0, to: 28, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

/// The VRAM pattern the test firmware writes.
let twiProbeDisplayPattern: [UInt8] = (0..<1024).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
