import Foundation
import Testing
import TiltCore
@testable import BoardEmulator

/// The MPU-6050 beyond the burst read, driven by Fixtures/Sketches/fifo_int
/// through Wire: the INT pin on D2, the FIFO and the offset registers.
@Suite(.serialized) struct MPU6050FixtureTests {
    static let still = RawSample(accel: Axes3(x: 1000, y: -2000, z: 15000), temperature: 1234,
                                 gyro: Axes3(x: 100, y: -200, z: 300))

    static func hexBytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
        }
    }

    @Test func interruptPinFIFOOffsetsCycleAndSleep() throws {
        let (board, client) = try ArduinoFixtures.start("fifo_int", motion: ConstantMotionSource(Self.still))
        defer { board.stop() }
        #expect(client.fields("A ") == ["A", "68"])

        // DATA_RDY at 100 Hz as 50 µs pulses on D2 (micros() counts in 4 µs steps).
        let p = try #require(client.fields("P "))
        let pulses = try #require(Int(p[1])), period = try #require(Int(p[2])), width = try #require(Int(p[3]))
        #expect((99...101).contains(pulses), "\(pulses) pulses in 1 s")
        #expect(abs(period - 10_000) <= 8, "rises \(period) µs apart")
        #expect(abs(width - 50) <= 12, "pulse \(width) µs wide")

        #expect(client.fields("L ") == ["L", "1", "1", "0"], "latched: held until INT_STATUS is read")
        let n = try #require(client.fields("N "))
        #expect(n[1] == "1", "active low idles high")
        #expect((19...21).contains(Int(n[2]) ?? 0), "\(n[2]) falling edges in 200 ms")

        // FIFO: 12-byte records (accel, then gyro X/Y/Z) of what the sensor felt.
        let f = try #require(client.fields("F "))
        let count = try #require(Int(f[1]))
        #expect(count == 48 || count == 60, "FIFO_COUNT \(count) after 45 ms at 100 Hz")
        let s = Self.still
        let record = [s.accel.x, s.accel.y, s.accel.z, s.gyro.x, s.gyro.y, s.gyro.z]
            .flatMap { [UInt8(UInt16(bitPattern: $0) >> 8), UInt8(UInt16(bitPattern: $0) & 0xFF)] }
        #expect(Self.hexBytes(f[2]) == record)
        let o = try #require(client.fields("O "))
        #expect(o[1] == "1024", "a full FIFO")
        #expect((Self.hexBytes(o[2]).first ?? 0) & 0x10 != 0, "FIFO_OFLOW in INT_STATUS: \(o[2])")
        #expect(client.fields("Z ") == ["Z", "0"])

        // XA_OFFS 1000 (±16 g format: +8000 counts at ±2 g), ZG_OFFS_USR −50 (−200 at ±250 °/s).
        #expect(client.fields("K ") == ["K", "\(1000 + 8000)", "\(300 - 200)"])
        let c = try #require(client.fields("C "))
        #expect((19...21).contains(Int(c[1]) ?? 0), "cycle mode at 20 Hz: \(c[1]) pulses in 1 s")
        #expect(client.fields("S ") == ["S", "0"], "asleep: no samples, no pulses")
        #expect(client.fields("E") == ["E"])
    }

    @Test func aPartWithAD0HighAnswersAt0x69() throws {
        let (board, client) = try ArduinoFixtures.start("fifo_int", motion: ConstantMotionSource(Self.still)) {
            $0.sensorAddress = 0x69
        }
        defer { board.stop() }
        #expect(client.fields("A ") == ["A", "69"])
        let p = try #require(client.fields("P "))
        #expect((99...101).contains(Int(p[1]) ?? 0))
    }

    @Test func anUnwiredInterruptPinStaysLow() throws {
        let (board, client) = try ArduinoFixtures.start("fifo_int", motion: ConstantMotionSource(Self.still)) {
            $0.sensorInterruptPin = nil
        }
        defer { board.stop() }
        #expect(client.fields("P ")?[1] == "0")
    }
}
