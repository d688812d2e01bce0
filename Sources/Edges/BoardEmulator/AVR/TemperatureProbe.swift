/// A DS18B20 1-Wire thermometer's protocol, slot by slot (Maxim's
/// datasheet): pure state, no timing; `OneWireBus` times the slots and
/// joins several probes on one line. After each reset it takes a ROM
/// command (READ, MATCH, SKIP, SEARCH ROM; ALARM SEARCH finds no alarm),
/// then, when chosen, a function command: CONVERT T, READ and WRITE
/// SCRATCHPAD, COPY SCRATCHPAD and RECALL E² (nothing to wait for), READ
/// POWER SUPPLY (externally powered). Bytes go least significant bit first.
struct TemperatureProbe: Sendable {
    /// Family code, six serial bytes, CRC: the 64-bit ROM, byte 0 first.
    let rom: [UInt8]
    /// Degrees Celsius the next conversion reads (−55 to 125).
    var celsius: Double
    /// TH, TL and the configuration register (resolution in bits 5 and 6).
    private var alarmHigh: UInt8 = 0x4B, alarmLow: UInt8 = 0x46, configuration: UInt8 = 0x7F
    /// The temperature register: +85 °C from power-on until a conversion.
    private var reading: UInt16 = 0x0550
    /// Board microseconds at which the running conversion ends.
    private var convertedAtMicros: UInt64 = 0

    private enum State: Sendable {
        case idle  // not chosen: silent until the next reset
        case romCommand
        case matching  // MATCH ROM: the 64 bits of the ROM to choose
        case searching(bit: Int, phase: Int)  // SEARCH ROM: the bit, its complement, the master's choice
        case functionCommand
        case sending([UInt8], then: Bool)  // bytes out, then this bit for ever (done / powered)
        case converting
        case writingScratchpad
    }
    private var state = State.idle
    /// Bits received of the current byte (or the 64 of MATCH ROM).
    private var received: UInt64 = 0, receivedCount = 0
    private var sentBits = 0

    /// A probe with this family code (0x28) and six serial bytes (ROM bytes 1 to 6; missing ones 0).
    init(familyCode: UInt8, serial: [UInt8], celsius: Double) {
        var rom = [familyCode] + serial.prefix(6) + [UInt8](repeating: 0, count: max(0, 6 - serial.count))
        rom.append(Self.crc8(rom))
        self.rom = rom
        self.celsius = celsius
    }

    /// A reset pulse: every probe answers with its presence and waits for a ROM command.
    mutating func reset() {
        state = .romCommand
        received = 0
        receivedCount = 0
    }

    /// The bit this probe puts on the line in the slot starting now (nil: it
    /// listens, or is silent). A 0 holds the line low; a 1 leaves it.
    func bitToSend(atMicros now: UInt64) -> Bool? {
        switch state {
        case .searching(let bit, let phase) where phase < 2:
            let value = rom[bit / 8] >> UInt8(bit % 8) & 1 == 1
            return phase == 0 ? value : !value
        case .sending(let bytes, let then):
            guard sentBits < bytes.count * 8 else { return then }
            return bytes[sentBits / 8] >> UInt8(sentBits % 8) & 1 == 1
        case .converting:
            return now >= convertedAtMicros
        default:
            return nil
        }
    }

    /// The slot ended: `line` is what the line read when the probe samples
    /// it (the master's bit in a write slot).
    mutating func slotEnded(line: Bool, atMicros now: UInt64) {
        switch state {
        case .idle, .converting:
            break
        case .searching(let bit, let phase):
            if phase < 2 { state = .searching(bit: bit, phase: phase + 1); return }
            let mine = rom[bit / 8] >> UInt8(bit % 8) & 1 == 1
            if line != mine { state = .idle } else if bit == 63 { state = .functionCommand; clearReceived() } else { state = .searching(bit: bit + 1, phase: 0) }
        case .sending:
            sentBits += 1
        case .romCommand, .functionCommand, .matching, .writingScratchpad:
            if line { received |= 1 << UInt64(receivedCount) }
            receivedCount += 1
            take(atMicros: now)
        }
    }

    private mutating func clearReceived() {
        received = 0
        receivedCount = 0
    }

    private mutating func send(_ bytes: [UInt8], then: Bool) {
        sentBits = 0
        state = .sending(bytes, then: then)
    }

    /// Acts on a whole byte (or MATCH ROM's 64 bits) once received.
    private mutating func take(atMicros now: UInt64) {
        switch state {
        case .matching:
            guard receivedCount == 64 else { return }
            state = rom.enumerated().allSatisfy({ UInt8(received >> UInt64($0.offset * 8) & 0xFF) == $0.element }) ? .functionCommand : .idle
            clearReceived()
        case .writingScratchpad:
            guard receivedCount == 24 else { return }
            alarmHigh = UInt8(received & 0xFF)
            alarmLow = UInt8(received >> 8 & 0xFF)
            configuration = UInt8(received >> 16 & 0x60) | 0x1F
            state = .idle
        case .romCommand:
            guard receivedCount == 8 else { return }
            let command = UInt8(received)
            clearReceived()
            switch command {
            case 0x33: send(rom, then: true)
            case 0x55: state = .matching
            case 0xCC: state = .functionCommand
            case 0xF0: state = .searching(bit: 0, phase: 0)
            default: state = .idle  // ALARM SEARCH (no alarm here), overdrive, unknown
            }
        case .functionCommand:
            guard receivedCount == 8 else { return }
            let command = UInt8(received)
            clearReceived()
            switch command {
            case 0x44:
                let bits = Int(configuration >> 5 & 3) + 9
                reading = Self.register(celsius: celsius, bits: bits)
                convertedAtMicros = now + UInt64(93_750 << (bits - 9))  // 93.75 ms at 9 bits, doubling a bit
                state = .converting
            case 0xBE: send(scratchpad, then: true)
            case 0x4E: state = .writingScratchpad
            case 0x48, 0xB8, 0xB4: send([], then: true)  // copied, recalled, externally powered
            default: state = .idle
            }
        default:
            break
        }
    }

    /// The nine scratchpad bytes, the last their CRC.
    var scratchpad: [UInt8] {
        var bytes = [UInt8(reading & 0xFF), UInt8(reading >> 8), alarmHigh, alarmLow, configuration, 0xFF, 0x0C, 0x10]
        bytes.append(Self.crc8(bytes))
        return bytes
    }

    /// The temperature register at `bits` of resolution: sixteenths of a
    /// degree, two's complement, rounded to the nearest step the resolution
    /// has (0.5 °C at 9 bits … 0.0625 at 12), the bits below it zero.
    static func register(celsius: Double, bits: Int) -> UInt16 {
        let step = Double(1 << (12 - bits))
        let sixteenths = Int16((min(max(celsius, -55), 125) * 16 / step).rounded() * step)
        return UInt16(bitPattern: sixteenths)
    }

    /// Maxim's 1-Wire CRC-8 (x⁸ + x⁵ + x⁴ + 1, least significant bit first).
    static func crc8(_ bytes: [UInt8]) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            var value = byte
            for _ in 0..<8 {
                let mix = (crc ^ value) & 1
                crc >>= 1
                if mix != 0 { crc ^= 0x8C }
                value >>= 1
            }
        }
        return crc
    }
}
