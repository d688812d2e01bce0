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

    /// The master's bus-state rules as a class (the datasheet's master
    /// transmitter and receiver status tables), from a polling driver (P) and an interrupt-driven one
    /// (I) of our own: Fixtures/Sketches/twi_rules. A step that never finishes
    /// reads "ee": before the START-after-STOP rule, script C hung there.
    @Test func theMastersBusStateRulesHoldForPollingAndInterruptDrivers() throws {
        let (board, client) = try ArduinoFixtures.start("twi_rules")
        defer { board.stop() }
        for driver in ["P", "I"] {
            // Write, repeated START, read with ACK then NACK: WHO_AM_I is 0x68.
            let a = try #require(client.fields(driver + "A "))
            #expect(Array(a.dropFirst().prefix(8)) == ["08", "18", "28", "10", "40", "50", "58", "/"], "\(driver)A: \(a)")
            #expect(a.count == 11 && a[9] == "68", "\(driver)A reads WHO_AM_I first: \(a)")
            // Nobody at 0x20: SLA+W NACK, data NACK, repeated START, SLA+R NACK.
            #expect(client.fields(driver + "B ") == [driver + "B", "08", "20", "30", "10", "48"])
            // START written while the STOP is still on the bus: sent once the bus is free.
            #expect(client.fields(driver + "C ") == [driver + "C", "08", "18", "28", "08", "40", "58", "/", "68"])
            // TWSTA with TWSTO: STOP, then a fresh START (0x08, not a repeated 0x10).
            #expect(client.fields(driver + "D ") == [driver + "D", "08", "18", "28", "08", "40", "58", "/", "68"])
            // NACK on the first byte read.
            let f = try #require(client.fields(driver + "F "))
            #expect(Array(f.prefix(5)) == [driver + "F", "08", "40", "58", "/"], "\(driver)F: \(f)")
        }
        // After a STOP: no TWINT, TWSR 0xF8 ("no relevant state"), TWSTO cleared by the TWI.
        #expect(client.fields("PS ") == ["PS", "0", "F8", "0"])
        // TWDR written mid-byte: TWWC, and the byte on the bus unchanged (0x75, WHO_AM_I, is read
        // back, not PWR_MGMT_1's); a later write with TWINT set clears TWWC.
        #expect(client.fields("PW ") == ["PW", "1", "68", "0"])
        // TWEN off mid-transfer releases the bus: the next START is a START.
        #expect(client.fields("PX ") == ["PX", "08"])
        #expect(client.fields("E") == ["E"])
    }
}
