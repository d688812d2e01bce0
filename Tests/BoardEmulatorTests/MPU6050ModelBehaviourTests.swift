import Testing
import TiltCore
@testable import BoardEmulator

/// The register model beyond the burst read: low-pass filter, offsets, FIFO,
/// interrupt status and line, power modes, DMP memory port, bounded catch-up.
struct MPU6050ModelBehaviourTests {
    typealias Register = MPU6050Model.Register

    /// Records when it is asked; accel z steps from 0 to 16384 at `stepMicros`.
    struct StepSource: MotionSource {
        var stepMicros: UInt64 = .max
        var times: [UInt64] = []
        mutating func sample(atMicros t: UInt64) -> RawSample {
            times.append(t)
            return RawSample(accel: Axes3(x: 100, y: -100, z: t >= stepMicros ? 16384 : 0), temperature: 77,
                             gyro: Axes3(x: 5, y: 6, z: 7))
        }

        func orientation(atMicros t: UInt64) -> Quaternion? { nil }
    }

    var source = StepSource()

    mutating func write(_ model: inout MPU6050Model, _ register: UInt8, _ bytes: UInt8..., at t: UInt64) {
        model.begin(read: false, atMicros: t, source: &source)
        model.write(register, atMicros: t)
        for byte in bytes { model.write(byte, atMicros: t) }
    }

    mutating func read(_ model: inout MPU6050Model, _ register: UInt8, count: Int, at t: UInt64) -> [UInt8] {
        model.begin(read: false, atMicros: t, source: &source)
        model.write(register, atMicros: t)
        model.begin(read: true, atMicros: t, source: &source)
        return (0..<count).map { _ in model.read() }
    }

    func z(_ bytes: [UInt8]) -> Int16 { Int16(bitPattern: UInt16(bytes[4]) << 8 | UInt16(bytes[5])) }

    /// Awake at t = 0 with CONFIG = `dlpf`, a sample every millisecond.
    mutating func awake(dlpf: UInt8) -> MPU6050Model {
        var model = MPU6050Model()
        write(&model, Register.powerManagement1, 0x00, at: 0)
        write(&model, Register.config, dlpf, at: 0)
        write(&model, Register.sampleRateDivider, dlpf == 0 ? 7 : 0, at: 0)
        return model
    }

    @Test mutating func theLowPassDelaysAStepAsItsBandwidthSays() {
        source.stepMicros = 100_000
        var filtered = awake(dlpf: 3)  // 44 Hz
        var halfway: UInt64?
        for t in stride(from: UInt64(99_000), through: 160_000, by: 1000) {
            let value = z(read(&filtered, Register.accelXHigh, count: 14, at: t))
            if t < 100_000 { #expect(value == 0) }
            if halfway == nil, value >= 8192 { halfway = t - 100_000 }
        }
        // A second-order Butterworth at 44 Hz: about 5 ms to half way (datasheet delay 4.9 ms).
        #expect((3000...7000).contains(halfway ?? 0), "half way after \(halfway ?? 0) µs")
        #expect(z(read(&filtered, Register.accelXHigh, count: 14, at: 300_000)) == 16384, "unity gain at DC")

        source.stepMicros = 100_000
        var raw = awake(dlpf: 0)
        #expect(z(read(&raw, Register.accelXHigh, count: 14, at: 100_000)) == 16384, "DLPF 0 passes the step at once")

        var slow = awake(dlpf: 6)  // 5 Hz
        _ = read(&slow, Register.accelXHigh, count: 14, at: 100_000)
        #expect(z(read(&slow, Register.accelXHigh, count: 14, at: 110_000)) < 4096, "5 Hz: still low 10 ms later")
    }

    @Test mutating func catchingUpAfterALongGapIsBounded() {
        var model = awake(dlpf: 6)
        source.times = []
        _ = read(&model, Register.accelXHigh, count: 14, at: 100_000_000)  // 100 s later
        #expect(source.times.count <= 700, "\(source.times.count) source calls for 100 s")
        #expect(model.sampleCount == 100_000)
    }

    @Test mutating func offsetRegistersShiftTheReadings() {
        var model = awake(dlpf: 0)
        write(&model, Register.accelOffsetXHigh, 0x01, 0x2D, at: 0)  // 301: bit 0 unused → 300 × 8
        write(&model, Register.gyroOffsetXHigh, 0xFF, 0xFE, at: 0)   // −2 → −8
        write(&model, Register.accelConfig, 0x08, at: 0)             // ±4 g: half the counts
        let sample = RawSample(burst: read(&model, Register.accelXHigh, count: 14, at: 5000))
        #expect(sample?.accel.x == Int16((100 + 2400) >> 1))
        #expect(sample?.gyro.x == Int16(-3))
    }

    @Test mutating func fifoRecordsOverflowsAndResets() {
        var model = awake(dlpf: 0)
        write(&model, Register.fifoEnable, 0x88, at: 0)        // temperature + accel: 8 bytes per sample
        write(&model, Register.userControl, 0x44, at: 0)        // FIFO on, reset
        let count = read(&model, Register.fifoCountHigh, count: 2, at: 3000)
        #expect(count == [0, 24], "3 samples × 8 bytes")
        let record = read(&model, Register.fifoReadWrite, count: 8, at: 3000)
        #expect(record == [0, 100, 0xFF, 0x9C, 0, 0, 0, 77], "accel, then temperature, in register order")
        _ = read(&model, Register.fifoReadWrite, count: 16, at: 3000)
        #expect(read(&model, Register.fifoReadWrite, count: 2, at: 3000) == [77, 77], "empty: the last byte again")
        #expect(read(&model, Register.intStatus, count: 1, at: 3000) == [0x01])
        _ = read(&model, Register.fifoCountHigh, count: 2, at: 200_000)
        #expect(model.fifoCount == 1024)
        #expect(read(&model, Register.intStatus, count: 1, at: 200_000) == [0x11], "FIFO_OFLOW and DATA_RDY")
        #expect(read(&model, Register.intStatus, count: 1, at: 200_000) == [0], "cleared on read")
        // The oldest bytes went: 1024 is not a whole number of 8-byte records... it is; the stream still ends on a record.
        let tail = read(&model, Register.fifoReadWrite, count: 1024, at: 200_000)
        #expect(Array(tail.suffix(8)) == [0, 100, 0xFF, 0x9C, 0, 0, 0, 77])
        write(&model, Register.userControl, 0x44, at: 200_000)
        #expect(model.fifoCount == 0)
        #expect(model.registers[Int(Register.userControl)] == 0x40, "the reset bit clears itself")
    }

    @Test mutating func interruptLinePulsesOrLatches() {
        var model = awake(dlpf: 3)
        write(&model, Register.sampleRateDivider, 9, at: 0)   // 100 Hz from t = 0
        write(&model, Register.intEnable, 0x01, at: 0)
        #expect(model.nextInterruptMicros(after: 0) == 10_000)
        model.advance(toMicros: 10_000, source: &source)
        #expect(model.interruptLineActive(atMicros: 10_000))
        #expect(model.interruptLineActive(atMicros: 10_049))
        #expect(!model.interruptLineActive(atMicros: 10_050), "a 50 µs pulse")
        #expect(model.nextInterruptMicros(after: 10_000) == 10_050)
        write(&model, Register.intPinConfig, 0x20, at: 10_100)  // latch
        #expect(model.interruptLineActive(atMicros: 15_000), "DATA_RDY still set: held")
        _ = read(&model, Register.intStatus, count: 1, at: 15_000)
        #expect(!model.interruptLineActive(atMicros: 15_000))
        write(&model, Register.intPinConfig, 0x30, at: 15_000)  // latch, cleared by any read
        model.advance(toMicros: 20_000, source: &source)
        #expect(model.interruptLineActive(atMicros: 20_000))
        _ = read(&model, Register.whoAmI, count: 1, at: 20_000)
        #expect(!model.interruptLineActive(atMicros: 20_000), "INT_RD_CLEAR: any read clears")
        write(&model, Register.intEnable, 0x00, at: 20_000)
        #expect(model.nextInterruptMicros(after: 20_000) == nil, "nothing enabled: no timer needed")
    }

    @Test mutating func powerModesStandbyAndResets() {
        var model = awake(dlpf: 0)
        write(&model, Register.powerManagement2, 0x07, at: 0)  // gyros in standby
        write(&model, Register.powerManagement1, 0x08, at: 0)  // TEMP_DIS
        var sample = RawSample(burst: read(&model, Register.accelXHigh, count: 14, at: 1000))
        #expect(sample?.gyro == Axes3(x: 0, y: 0, z: 0) && sample?.temperature == 0 && sample?.accel.x == 100)
        write(&model, Register.powerManagement2, 0xC0, at: 1000)  // 40 Hz wake-ups
        write(&model, Register.powerManagement1, 0x20, at: 1000)  // CYCLE
        #expect(model.isCycling && model.samplePeriodMicros == 25_000)
        let before = model.sampleCount
        _ = read(&model, Register.intStatus, count: 1, at: 1_001_000)
        #expect(model.sampleCount - before == 40)
        write(&model, Register.powerManagement1, 0x40, at: 1_001_000)  // SLEEP
        #expect(model.nextSampleMicros == nil)
        write(&model, Register.powerManagement1, 0x00, at: 1_001_000)
        sample = RawSample(burst: read(&model, Register.accelXHigh, count: 14, at: 1_010_000))
        #expect(sample?.accel.x == 100)
        write(&model, Register.userControl, 0x01, at: 1_010_000)  // SIG_COND_RESET clears the data registers
        #expect(read(&model, Register.accelXHigh, count: 2, at: 1_010_000) == [0, 0])
    }

    @Test mutating func dmpMemoryIsWrittenAndReadThroughBankAndAddress() {
        var model = MPU6050Model()
        write(&model, Register.bankSelect, 0x02, at: 0)
        write(&model, Register.memoryStart, 0xFE, at: 0)
        write(&model, Register.memoryReadWrite, 0x11, 0x22, 0x33, 0x44, at: 0)  // crosses into bank 3
        #expect(model.registers[Int(Register.bankSelect)] == 0x03 && model.registers[Int(Register.memoryStart)] == 0x02)
        write(&model, Register.bankSelect, 0x02, at: 0)
        write(&model, Register.memoryStart, 0xFE, at: 0)
        #expect(read(&model, Register.memoryReadWrite, count: 4, at: 0) == [0x11, 0x22, 0x33, 0x44])
        #expect(model.memory[2 * 256 + 0xFE] == 0x11 && model.memory[3 * 256 + 1] == 0x44)
    }
}

/// The MPU-6500 family's temperature (MPU-6500 register map rev 2.1, TEMP_OUT:
/// °C = raw / 333.87 + 21) next to the MPU-6050's (raw / 340 + 36.53).
@Suite struct MPU6500FamilyTests {
    @Test func theSameTemperatureInEachPartsCounts() {
        // MPU-6050 −3920 is −3920 / 340 + 36.53 = 25.0006 °C; MPU-6500 (25.0006 − 21) × 333.87 = 1335.7.
        #expect(MPU6050Model.mpu6500Temperature(fromMPU6050: -3920) == 1336)
        // 21 °C reads 0 on the 6500: (21 − 36.53) × 340 = −5280.2.
        #expect(MPU6050Model.mpu6500Temperature(fromMPU6050: -5280) == 0)
        #expect(MPU6050Model(whoAmI: 0x98).registers[0x75] == 0x98)
        #expect(MPU6050Model().registers[0x75] == 0x68)
    }
}
