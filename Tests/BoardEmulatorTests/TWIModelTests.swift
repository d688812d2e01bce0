import Foundation
import Testing
@testable import BoardEmulator

/// Our TWI model (CBoardParts/cbp_twi.c) as a polling, register-level driver
/// sees it: Fixtures/Sketches/polling_twi in simavr.
@Suite(.serialized) struct TWIModelTests {
    @Test func aPollingDriverSeesTheDatasheetsStatusCodesAndBusTime() throws {
        let (board, client) = try ArduinoFixtures.start("polling_twi")
        defer { board.stop() }
        // Writing 1 to TWINT clears it at once (simavr 1.6 left it set).
        #expect(client.fields("I ") == ["I", "0"])
        // START, SLA+W ACK, data ACK, repeated START, SLA+R ACK, data ACK, data NACK.
        #expect(client.fields("S") == ["S", "08", "18", "28", "10", "40", "50", "58"])
        #expect(client.fields("W ") == ["W", "68", "00"], "WHO_AM_I, then register 0x76")
        // Nobody at 0x50: SLA+W NACK, a data byte after it NACK, SLA+R NACK.
        #expect(client.fields("N ") == ["N", "20", "30", "48"])

        // One read = START + 3 bytes + repeated START + 3 bytes... : 48 SCL
        // periods of 16 + 2·TWBR·4^TWPS cycles, plus the driver's own few cycles per step.
        var cycles: [String: Int] = [:]
        for _ in 0..<3 {
            let t = try #require(client.fields("T "))
            cycles[t[1] + "/" + t[2]] = Int(t[3])
        }
        let slow = try #require(cycles["72/0"]), fast = try #require(cycles["12/0"]), scaled = try #require(cycles["18/1"])
        #expect(slow >= 48 * 160 && slow < 48 * 160 + 800, "100 kHz: \(slow) cycles")
        #expect(fast >= 48 * 40 && fast < 48 * 40 + 800, "400 kHz: \(fast) cycles")
        #expect(abs(scaled - slow) < 64, "TWPS 1 with TWBR 18 is 100 kHz too: \(scaled) vs \(slow)")
        #expect(Double(slow - 48 * 160) < Double(fast) * 0.5, "the driver's overhead is small next to the bus time")
        #expect(client.fields("E") == ["E"])
    }
}
