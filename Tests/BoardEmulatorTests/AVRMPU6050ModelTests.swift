import Testing
import TiltCore
@testable import BoardEmulator

/// The register model alone: bus transactions with explicit simulated times.
struct AVRMPU6050ModelTests {
    typealias Register = MPU6050Model.Register

    /// Counts how often it is asked, and when.
    struct RecordingSource: MotionSource {
        var reading: RawSample
        var times: [UInt64] = []
        mutating func sample(atMicros t: UInt64) -> RawSample {
            times.append(t)
            return reading
        }

        func orientation(atMicros t: UInt64) -> Quaternion? { nil }
    }

    var source = RecordingSource(reading: RawSample(
        accel: Axes3(x: 16384, y: -8192, z: -1), temperature: 1000, gyro: Axes3(x: -131, y: 262, z: 32767)))

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

    @Test mutating func powersUpAsleepWithWhoAmI0x68() {
        var model = MPU6050Model()
        #expect(read(&model, Register.whoAmI, count: 1, at: 0) == [0x68])
        #expect(read(&model, Register.powerManagement1, count: 1, at: 0) == [0x40])
        #expect(model.isAsleep)
        // Asleep: time passes, data registers stay frozen at zero.
        #expect(read(&model, Register.accelXHigh, count: 14, at: 1_000_000) == [UInt8](repeating: 0, count: 14))
        #expect(source.times.isEmpty)
    }

    @Test mutating func wakesAndSamplesAtTheConfiguredRate() {
        var model = MPU6050Model()
        write(&model, Register.powerManagement1, 0x00, at: 1000)
        #expect(model.samplePeriodMicros == 125)  // DLPF off: 8 kHz
        write(&model, Register.config, 0x03, at: 1000)
        #expect(model.samplePeriodMicros == 1000)  // DLPF on: 1 kHz
        write(&model, Register.sampleRateDivider, 4, at: 1000)
        #expect(model.samplePeriodMicros == 5000)  // 200 Hz
        #expect(read(&model, Register.intStatus, count: 1, at: 5999) == [0])
        #expect(read(&model, Register.intStatus, count: 1, at: 6000) == [1])
        #expect(read(&model, Register.intStatus, count: 1, at: 6001) == [0])  // cleared on read
        // The low-pass filter sees the motion at the 1 kHz internal rate, from the wake-up on.
        #expect(source.times == Array(stride(from: 1000, through: 6000, by: 1000)))
        // A slow reader gets the newest sample, taken on a period boundary.
        _ = read(&model, Register.intStatus, count: 1, at: 23_000)
        #expect(source.times == Array(stride(from: 1000, through: 21_000, by: 1000)))
        #expect(model.sampleCount == 4)  // 6, 11, 16, 21 ms
        #expect(read(&model, Register.accelXHigh, count: 14, at: 23_000) == source.reading.burstBytes)
    }

    /// The firmware's one-transaction read: INT_STATUS (0x3A) runs on into the
    /// burst (0x3B...0x48), both of one sampling instant, and clears DATA_RDY.
    @Test mutating func aReadFromIntStatusRunsOnIntoTheBurstAndClearsDataReady() {
        var model = MPU6050Model()
        write(&model, Register.powerManagement1, 0x00, at: 1000)
        write(&model, Register.config, 0x03, at: 1000)  // 1 kHz
        let first = read(&model, Register.intStatus, count: 15, at: 22_500)
        #expect(first.first == 1)
        #expect(Array(first.dropFirst()) == source.reading.burstBytes)
        #expect(first.count == 15)
        // Read again before the next sample: DATA_RDY was cleared, the data are the same sample's.
        let again = read(&model, Register.intStatus, count: 15, at: 22_900)
        #expect(again == [0] + first.dropFirst())
        #expect(read(&model, Register.intStatus, count: 1, at: 23_000) == [1])
    }

    @Test mutating func scalesReadingsToTheSelectedFullScale() {
        var model = MPU6050Model()
        write(&model, Register.powerManagement1, 0x00, at: 0)
        write(&model, Register.accelConfig, 0x10, at: 0)  // ±8 g
        write(&model, Register.gyroConfig, 0x18, at: 0)   // ±2000 °/s
        let bytes = read(&model, Register.accelXHigh, count: 14, at: 10_000)
        let sample = RawSample(burst: bytes)
        #expect(sample?.accel == Axes3(x: 4096, y: -2048, z: -1))
        #expect(sample?.temperature == 1000)
        #expect(sample?.gyro == Axes3(x: -17, y: 32, z: 4095))
    }

    @Test mutating func autoIncrementsOnWritesAndReads() {
        var model = MPU6050Model()
        write(&model, Register.sampleRateDivider, 7, 0x05, 0x08, 0x18, at: 0)
        #expect(read(&model, Register.sampleRateDivider, count: 4, at: 0) == [7, 0x05, 0x08, 0x18])
        #expect(model.accelRange == .g16 && model.gyroRange == .dps500)
    }

    @Test mutating func ignoresWritesToReadOnlyRegistersAndResetsOnDeviceReset() {
        var model = MPU6050Model()
        write(&model, Register.whoAmI, 0x12, at: 0)
        write(&model, Register.accelXHigh, 0x55, at: 0)
        #expect(read(&model, Register.whoAmI, count: 1, at: 0) == [0x68])
        #expect(read(&model, Register.accelXHigh, count: 1, at: 0) == [0])
        write(&model, Register.powerManagement1, 0x00, at: 0)
        write(&model, Register.sampleRateDivider, 9, at: 0)
        write(&model, Register.powerManagement1, 0x80, at: 0)
        #expect(model.isAsleep)
        #expect(read(&model, Register.sampleRateDivider, count: 1, at: 0) == [0])
    }
}

struct BoardPacerTests {
    @Test func waitsUntilTheWallClockCatchesUp() {
        var pacer = BoardPacer(pace: .realTime)
        pacer.anchor(boardMicros: 1000, wallNanos: 5_000_000)
        #expect(pacer.delay(beforeReaching: 2000, wallNanos: 5_000_000) == 1_000_000)
        #expect(pacer.delay(beforeReaching: 2000, wallNanos: 5_400_000) == 600_000)
        #expect(pacer.delay(beforeReaching: 2000, wallNanos: 6_000_000) == 0)
    }

    @Test func scalesBySpeedAndNeverWaitsWhenFreeRunning() {
        var half = BoardPacer(pace: .speed(0.5))
        #expect(half.delay(beforeReaching: 1000, wallNanos: 0) == 2_000_000)
        var free = BoardPacer(pace: .freeRunning)
        #expect(free.delay(beforeReaching: 1_000_000_000, wallNanos: 0) == 0)
    }

    /// A factor of any size, as the API takes one: instants beyond any wall
    /// time come out as UInt64.max, never a trap (`--speed 1e-20` trapped
    /// converting 1e26 ns to UInt64; 1e300 overflowed the sum).
    @Test func anExtremeFactorSaturatesInsteadOfTrapping() {
        var slow = BoardPacer(pace: .speed(1e-20))
        slow.anchor(boardMicros: 0, wallNanos: 1000)
        #expect(slow.delay(beforeReaching: 1_000_000, wallNanos: 1000) == UInt64.max)
        #expect(slow.microsUntil(boardMicros: 1_000_000, wallNanos: 1000) == Int((UInt64.max - 1000) / 1000 + 1))
        #expect(slow.allowedBoardMicros(wallNanos: 2000, next: 10) == 0)
        var fast = BoardPacer(pace: .speed(1e300))
        fast.anchor(boardMicros: 5, wallNanos: 0)
        #expect(fast.allowedBoardMicros(wallNanos: 1_000_000, next: .max) == .max)
        #expect(fast.delay(beforeReaching: 1_000_000, wallNanos: 0) == 0)
    }

    @Test func forgivesALongStallInsteadOfRacing() {
        var pacer = BoardPacer(pace: .realTime)
        // One second behind: re-anchor, so the next millisecond waits a millisecond.
        #expect(pacer.delay(beforeReaching: 1000, wallNanos: 1_000_000_000) == 0)
        #expect(pacer.delay(beforeReaching: 2000, wallNanos: 1_000_000_000) == 1_000_000)
    }
}
