import Testing
@testable import BoardEmulator

/// The bus ceiling, against figures worked by hand from the ATmega328P
/// datasheet's SCL formula (section 21.5.2) and 9 SCL periods per byte.
@Suite struct GlassBusLimitTests {
    @Test func fastModeOnAnUnoIsFortyCyclesAPeriod() {
        // 16 MHz / (16 + 2 * 12) = 400 kHz.
        #expect(GlassBusLimit(cpuHz: 16_000_000, twbr: 12).sclCycles == 40)
        // Prescaler x4: 16 + 2 * 72 * 4 = 592 cycles.
        #expect(GlassBusLimit(cpuHz: 16_000_000, twbr: 72, prescalerBits: 1).sclCycles == 592)
    }

    @Test func aWholeScreenInOneTransaction() {
        let bus = GlassBusLimit(cpuHz: 16_000_000, twbr: 12)
        // Address + control byte + 1024 GDDRAM bytes = 1026 bytes, one START and one STOP:
        // (1026 * 9 + 2) * 40 = 369_440 cycles; 16e6 / 369_440 ≈ 43.31 frames/s.
        #expect(bus.frameCycles(bytes: 1026, transactions: 1) == 369_440)
        let fps = bus.framesPerSecond(bytes: 1026, transactions: 1)
        #expect(abs(fps - 16_000_000.0 / 369_440.0) < 1e-9)
        #expect(fps > 43.3 && fps < 43.4)
    }

    @Test func moreTransactionsCostTheirStartsAndStops() {
        let bus = GlassBusLimit(cpuHz: 16_000_000, twbr: 12)
        let one = bus.frameCycles(bytes: 1092, transactions: 1)
        let many = bus.frameCycles(bytes: 1092, transactions: 33)
        #expect(many - one == 32 * 2 * 40)
    }

    @Test func anEmptyFrameHasNoCeiling() {
        #expect(GlassBusLimit(cpuHz: 16_000_000, twbr: 12).framesPerSecond(bytes: 0, transactions: 0) == 0)
    }

    /// Our firmware asks for 400 kHz (Hardware/tiltserial/config.h I2C_CLOCK_HZ):
    /// TWBR = (16 MHz / 400 kHz − 16) / 2 = 12, prescaler ×1, so 40 cycles a period.
    @Test func ourFirmwareClocksTheBusAtFourHundredKilohertz() throws {
        let machine = try AVRMachine(.init(firmwarePath: try BuiltFirmware.tiltserial()))
        machine.run(untilMicros: 500_000)
        let bus = try #require(machine.glassBusLimit)
        #expect(bus.twbr == 12)
        #expect(bus.prescalerBits == 0)
        #expect(bus.sclCycles == 40)
        // The bus was busy in those 500 ms, at no more than its clock allows.
        #expect(machine.busCycles > 0)
        // The display heard at least its init commands and one whole screen
        // (1024 GDDRAM bytes), each transaction at least its address byte; and
        // every byte it heard took 9 SCL periods of the bus's busy time.
        let traffic = machine.displayTraffic
        #expect(traffic.bytes >= 1024)
        #expect(traffic.transactions >= 1 && traffic.transactions <= traffic.bytes)
        #expect(machine.busCycles >= traffic.bytes * 9 * bus.sclCycles)
    }
}
