@testable import BoardEmulator
import Testing

/// The DS18B20's protocol as pure state, slot by slot (no simulator): what
/// a master sees of it on the line.
@Suite struct TemperatureProbeTests {
    /// Writes `byte` least significant bit first, as the master's write slots.
    static func write(_ byte: UInt8, to probe: inout TemperatureProbe) {
        for bit in 0..<8 { probe.slotEnded(line: byte >> UInt8(bit) & 1 == 1, atMicros: 0) }
    }

    /// Reads a byte in read slots at `micros` (a silent probe leaves the line high).
    static func read(from probe: inout TemperatureProbe, atMicros micros: UInt64 = 0) -> UInt8 {
        var byte: UInt8 = 0
        for bit in 0..<8 {
            if probe.bitToSend(atMicros: micros) ?? true { byte |= 1 << UInt8(bit) }
            probe.slotEnded(line: true, atMicros: micros)
        }
        return byte
    }

    @Test func crcAndRegisterAreTheDatasheets() {
        // Maxim's application note 27: ROM 02 1C B8 01 00 00 00 has CRC A2.
        #expect(TemperatureProbe.crc8([0x02, 0x1C, 0xB8, 0x01, 0x00, 0x00, 0x00]) == 0xA2)
        // The datasheet's table: +125 07D0, +25.0625 0191, −10.125 FF5E, −55 FC90 at 12 bits.
        #expect(TemperatureProbe.register(celsius: 125, bits: 12) == 0x07D0)
        #expect(TemperatureProbe.register(celsius: 25.0625, bits: 12) == 0x0191)
        #expect(TemperatureProbe.register(celsius: -10.125, bits: 12) == 0xFF5E)
        #expect(TemperatureProbe.register(celsius: -55, bits: 12) == 0xFC90)
        #expect(TemperatureProbe.register(celsius: 25.2, bits: 9) == 0x0190 && TemperatureProbe.register(celsius: 25.3, bits: 9) == 0x0198, "to the nearest half degree, the low bits zero")
    }

    @Test func skipConvertAndReadTheScratchpad() {
        var probe = TemperatureProbe(familyCode: 0x28, serial: [1, 2, 3, 4, 5, 6], celsius: 23.5)
        #expect(probe.rom.count == 8 && probe.rom[7] == TemperatureProbe.crc8(Array(probe.rom.prefix(7))))
        probe.reset()
        Self.write(0xCC, to: &probe)
        Self.write(0xBE, to: &probe)
        let powerOn = (0..<9).map { _ in Self.read(from: &probe) }
        #expect(powerOn.prefix(5) == [0x50, 0x05, 0x4B, 0x46, 0x7F], "+85 °C until a conversion")
        #expect(powerOn[8] == TemperatureProbe.crc8(Array(powerOn.prefix(8))))
        probe.reset()
        Self.write(0xCC, to: &probe)
        Self.write(0x44, to: &probe)
        #expect(probe.bitToSend(atMicros: 749_999) == false && probe.bitToSend(atMicros: 750_000) == true, "750 ms at 12 bits")
        probe.reset()
        Self.write(0x33, to: &probe)  // READ ROM
        #expect((0..<8).map { _ in Self.read(from: &probe) } == probe.rom)
        probe.reset()
        Self.write(0x55, to: &probe)  // MATCH ROM, another probe's
        for byte in [0x28, 9, 9, 9, 9, 9, 9, 0] as [UInt8] { Self.write(byte, to: &probe) }
        Self.write(0xBE, to: &probe)
        #expect(Self.read(from: &probe) == 0xFF, "not chosen: silent")
        probe.reset()
        Self.write(0xCC, to: &probe)
        Self.write(0xBE, to: &probe)
        #expect(Self.read(from: &probe) == 0x78 && Self.read(from: &probe) == 0x01, "23.5 °C is 0x0178")
    }
}
