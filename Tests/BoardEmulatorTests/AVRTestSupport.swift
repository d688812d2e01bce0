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

/// A motion source that writes the sample time into the reading:
/// accel x/y = high/low 16 bits of t (µs), z = +1 g; gyro and temperature fixed.
struct TimeStampMotionSource: MotionSource {
    func sample(atMicros t: UInt64) -> RawSample {
        RawSample(accel: Axes3(x: Int16(truncatingIfNeeded: t >> 16), y: Int16(truncatingIfNeeded: t), z: 16384),
                  temperature: -1234, gyro: Axes3(x: 1, y: 2, z: 3))
    }

    func orientation(atMicros t: UInt64) -> Quaternion? { nil }

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
