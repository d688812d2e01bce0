import TiltCore

/// A virtual MPU-6050 as its I2C interface sees it: registers, sampling,
/// low-pass filter, offsets, FIFO, interrupt status and the DMP's memory port.
///
/// Pure value: the TWI glue (`MPU6050Device`) feeds it bus events with the
/// simulated time. Internally the part samples at exact period boundaries;
/// the model catches up lazily whenever it is touched (a START, or a timer the
/// glue sets while an interrupt is enabled), so every run is the same.
/// The user-facing data registers are copied from the newest sample at each
/// START (the part refreshes them while the bus is idle), so a burst read
/// always sees one sampling instant.
public struct MPU6050Model: Sendable {
    /// The 128 registers (index = register address).
    public private(set) var registers: [UInt8]
    /// The register the next read or write goes to.
    public private(set) var pointer: UInt8 = 0
    /// Simulated time of the next sample; nil while asleep.
    public private(set) var nextSampleMicros: UInt64?
    /// Samples taken since power-on.
    public private(set) var sampleCount: UInt64 = 0
    /// Simulated time of the newest sample (its DATA_RDY), the one the data
    /// registers show from the next START on; nil before the first.
    public private(set) var newestSampleMicros: UInt64?
    /// When an enabled interrupt last fired (an INT_STATUS bit set with its INT_ENABLE bit).
    public private(set) var lastInterruptMicros: UInt64?
    /// DMP memory (32 banks of 256 bytes), written and read through BANK_SEL, MEM_START_ADDR, MEM_R_W.
    public private(set) var memory: [UInt8]
    /// The DMP's packet generator (MotionApps 2.0 layout).
    public private(set) var dmp = MPU6050DMP()

    private var expectingPointer = false
    private var fifo = MPU6050FIFO()
    private var fifoCountLatch: Int?
    /// The newest sample, as the 14 data registers would hold it.
    private var sample = [UInt8](repeating: 0, count: 14)
    // Low-pass filter state: six axes at the 1 kHz internal rate.
    private var filters: [MPU6050LowPass] = []
    private var nextTickMicros: UInt64 = 0
    private var filteredTemperature: Int16 = 0
    private var filtered = [Double](repeating: 0, count: 6)
    private var samplingAnchorMicros: UInt64 = 0

    /// The width of the INT pulse without LATCH_INT_EN.
    public static let interruptPulseMicros: UInt64 = 50

    /// What WHO_AM_I (0x75) reads: 0x68 for the MPU-6050; 0x70 MPU-6500, 0x71
    /// MPU-9250, 0x73 MPU-9255, 0x98/0x72/0x74 the look-alikes sold on GY-521
    /// boards. Any other part is modelled as the MPU-6500 family (an
    /// assumption for the look-alikes, whose data sheets are not public):
    /// the register map of the MPU-6050, the temperature read as
    /// raw / 333.87 + 21 °C (MPU-6500 register map rev 2.1, TEMP_OUT) instead of
    /// raw / 340 + 36.53, and ACCEL_CONFIG2 (0x1D) kept like any register (the
    /// accelerometer's low-pass still follows CONFIG, as it does when a driver
    /// writes both with the same index, as ours does).
    public let whoAmI: UInt8

    /// A part just powered on: registers at their reset values, asleep (PWR_MGMT_1 = 0x40).
    public init(whoAmI: UInt8 = 0x68) {
        self.whoAmI = whoAmI
        registers = [UInt8](repeating: 0, count: 128)
        memory = [UInt8](repeating: 0, count: 32 * 256)
        powerOn()
    }

    /// Power-on reset: every register to its default, asleep (PWR_MGMT_1 = 0x40).
    public mutating func powerOn() {
        for i in registers.indices { registers[i] = 0 }
        for i in memory.indices { memory[i] = 0 }
        registers[Int(Register.powerManagement1)] = 0x40
        registers[Int(Register.whoAmI)] = whoAmI
        pointer = 0
        expectingPointer = false
        nextSampleMicros = nil
        newestSampleMicros = nil
        lastInterruptMicros = nil
        fifo.clear()
        fifoCountLatch = nil
        sample = [UInt8](repeating: 0, count: 14)
        filters = []
        dmp = MPU6050DMP()
    }

    // MARK: Configuration as the registers say

    private func register(_ r: UInt8) -> UInt8 { registers[Int(r)] }

    /// PWR_MGMT_1's SLEEP bit (6): no samples, data registers frozen.
    public var isAsleep: Bool { register(Register.powerManagement1) & 0x40 != 0 }
    /// CYCLE without SLEEP: one accelerometer sample per wake-up (LP_WAKE_CTRL).
    public var isCycling: Bool { !isAsleep && register(Register.powerManagement1) & 0x20 != 0 }

    /// Gyro output rate: 1 kHz with the low-pass filter on (DLPF_CFG 1...6), else 8 kHz.
    public var gyroOutputRateHz: UInt64 {
        MPU6050LowPass.bandwidths(dlpf: register(Register.config)) != nil ? 1000 : 8000
    }

    /// Sample period: (1 + SMPLRT_DIV) / gyro output rate, in whole microseconds
    /// (exact: 125 or 1000 µs per divider step); in cycle mode 1 / LP_WAKE_CTRL's rate.
    public var samplePeriodMicros: UInt64 {
        if isCycling {
            return [800_000, 200_000, 50_000, 25_000][Int(register(Register.powerManagement2) >> 6)]  // 1.25, 5, 20, 40 Hz
        }
        return (1_000_000 / gyroOutputRateHz) * (1 + UInt64(register(Register.sampleRateDivider)))
    }

    /// ACCEL_CONFIG's AFS_SEL (bits 4:3): ±2, 4, 8 or 16 g.
    public var accelRange: AccelRange { AccelRange(rawValue: (register(Register.accelConfig) >> 3) & 3)! }
    /// GYRO_CONFIG's FS_SEL (bits 4:3): ±250, 500, 1000 or 2000 °/s.
    public var gyroRange: GyroRange { GyroRange(rawValue: (register(Register.gyroConfig) >> 3) & 3)! }

    /// Bytes waiting in the FIFO.
    public var fifoCount: Int { fifo.count }

    private var fifoActive: Bool { register(Register.userControl) & 0x40 != 0 }

    /// Bytes one sample puts into the FIFO (FIFO_EN: accel 6, temperature 2, each gyro axis 2).
    private var fifoBytesPerSample: Int {
        let e = register(Register.fifoEnable)
        return (e & 0x08 != 0 ? 6 : 0) + (e & 0x80 != 0 ? 2 : 0) + (e & 0x40 != 0 ? 2 : 0)
            + (e & 0x20 != 0 ? 2 : 0) + (e & 0x10 != 0 ? 2 : 0)
    }

    // MARK: Bus

    /// A START addressed to the part: the part catches up to `t` and refreshes
    /// its user-facing data registers. A write transaction's first byte sets
    /// the register pointer.
    public mutating func begin(read: Bool, atMicros t: UInt64, source: inout some MotionSource) {
        advance(toMicros: t, source: &source)
        for (i, byte) in sample.enumerated() { registers[Int(Register.accelXHigh) + i] = byte }
        expectingPointer = !read
        fifoCountLatch = nil
    }

    /// A byte written by the master.
    public mutating func write(_ byte: UInt8, atMicros t: UInt64) {
        if expectingPointer {
            pointer = byte & 0x7F
            expectingPointer = false
            return
        }
        store(byte, at: pointer, atMicros: t)
        if pointer != Register.fifoReadWrite && pointer != Register.memoryReadWrite {
            pointer = (pointer &+ 1) & 0x7F
        }
    }

    /// A byte read by the master.
    public mutating func read() -> UInt8 {
        let value: UInt8
        switch pointer {
        case Register.fifoCountHigh:
            let count = fifoCountLatch ?? fifo.count
            fifoCountLatch = count  // reading FIFO_COUNTH latches the count for FIFO_COUNTL
            value = UInt8(count >> 8)
        case Register.fifoCountLow:
            value = UInt8((fifoCountLatch ?? fifo.count) & 0xFF)
            fifoCountLatch = nil
        case Register.fifoReadWrite:
            value = fifo.pop()
        case Register.memoryReadWrite:
            value = memory[memoryAddress]
            stepMemoryAddress()
        default:
            value = registers[Int(pointer)]
        }
        // INT_STATUS clears when read (with INT_RD_CLEAR, on any read).
        if pointer == Register.intStatus || register(Register.intPinConfig) & 0x10 != 0 {
            registers[Int(Register.intStatus)] = 0
        }
        if pointer != Register.fifoReadWrite && pointer != Register.memoryReadWrite {
            pointer = (pointer &+ 1) & 0x7F
        }
        return value
    }

    /// Whether the INT line is asserted at `t` (before INT_LEVEL inverts it):
    /// latched (LATCH_INT_EN) while an enabled INT_STATUS bit is set, else a
    /// 50 µs pulse per interrupt.
    public func interruptLineActive(atMicros t: UInt64) -> Bool {
        if register(Register.intPinConfig) & 0x20 != 0 {
            return register(Register.intStatus) & register(Register.intEnable) != 0
        }
        guard let last = lastInterruptMicros else { return false }
        return t >= last && t < last + Self.interruptPulseMicros
    }

    /// When the INT line may next change after `t`: the end of a pulse, or
    /// the next sample while any interrupt is enabled; nil: not before a bus access.
    public func nextInterruptMicros(after t: UInt64) -> UInt64? {
        var next: UInt64?
        if register(Register.intPinConfig) & 0x20 == 0, let last = lastInterruptMicros, t < last + Self.interruptPulseMicros {
            next = last + Self.interruptPulseMicros
        }
        if register(Register.intEnable) != 0, let sample = nextSampleMicros {
            next = min(next ?? sample, sample)
        }
        return next
    }

    // MARK: Sampling

    /// Takes every sample due by `t`. Work is bounded: of a long stretch
    /// nobody looked at, only the samples that can still be seen are made (the
    /// newest, or enough to fill the FIFO), with the low-pass filter run over
    /// the last few time constants before them.
    public mutating func advance(toMicros t: UInt64, source: inout some MotionSource) {
        guard var next = nextSampleMicros, t >= next else { return }
        let period = samplePeriodMicros
        let due = (t - next) / period + 1
        let keep = UInt64(samplesWorthKeeping)
        if due > keep {
            let skipped = due - keep
            next += skipped * period
            sampleCount += skipped
            dmp.skip(skipped)
        }
        while next <= t {
            takeSample(at: next, source: &source)
            next += period
        }
        nextSampleMicros = next
    }

    /// Samples that can still be observed after a gap.
    private var samplesWorthKeeping: Int {
        var keep = 1
        if fifoActive, fifoBytesPerSample > 0 { keep = MPU6050FIFO.capacity / fifoBytesPerSample + 2 }
        if dmp.emitsPackets(userControl: register(Register.userControl)) {
            keep = max(keep, (MPU6050FIFO.capacity / MPU6050DMP.packetSize + 2) * dmp.samplesPerPacket(memory: memory))
        }
        return keep
    }

    private mutating func takeSample(at t: UInt64, source: inout some MotionSource) {
        let reading = measure(at: t, source: &source)
        latch(reading)
        sampleCount += 1
        newestSampleMicros = t
        var raised = Interrupt.dataReady
        if fifoActive, fifoBytesPerSample > 0, fifo.push(fifoRecord()) { raised |= Interrupt.fifoOverflow }
        if dmp.emitsPackets(userControl: register(Register.userControl)),
           dmp.tick(samplesPerPacket: dmp.samplesPerPacket(memory: memory)) {
            if fifo.push(dmp.packet(atMicros: t, source: source, data: sample, accelRange: accelRange)) {
                raised |= Interrupt.fifoOverflow
            }
            raised |= Interrupt.dmp
        }
        let enabled = raised & register(Register.intEnable)
        registers[Int(Register.intStatus)] |= raised
        if enabled != 0 { lastInterruptMicros = t }
    }

    /// Accelerometer and gyro at ±2 g / ±250 °/s counts (filtered when DLPF is
    /// on), and the temperature, at sample time `t`.
    private mutating func measure(at t: UInt64, source: inout some MotionSource) -> MPU6050Reading {
        if !isCycling, let bandwidth = MPU6050LowPass.bandwidths(dlpf: register(Register.config)) {
            if filters.isEmpty {
                filters = [MPU6050LowPass](repeating: MPU6050LowPass(hertz: bandwidth.accel), count: 3)
                    + [MPU6050LowPass](repeating: MPU6050LowPass(hertz: bandwidth.gyro), count: 3)
                // Ticks on the sample grid, from the wake-up (or far enough back to have settled).
                let settle = Self.settleMicros(bandwidth)
                nextTickMicros = t - min(settle, (t - min(t, samplingAnchorMicros)) / 1000 * 1000)
            }
            runFilters(through: t, source: &source)
            return MPU6050Reading(accel: (filtered[0], filtered[1], filtered[2]),
                                  gyro: (filtered[3], filtered[4], filtered[5]), temperature: filteredTemperature)
        }
        let s = source.sample(atMicros: t)
        return MPU6050Reading(accel: (Double(s.accel.x), Double(s.accel.y), Double(s.accel.z)),
                              gyro: (Double(s.gyro.x), Double(s.gyro.y), Double(s.gyro.z)), temperature: s.temperature)
    }

    private mutating func runFilters(through t: UInt64, source: inout some MotionSource) {
        guard let bandwidth = MPU6050LowPass.bandwidths(dlpf: register(Register.config)) else { return }
        // Beyond a few time constants the past no longer shows: start afresh there.
        let settle = Self.settleMicros(bandwidth)
        if t > nextTickMicros + settle {
            nextTickMicros += (t - settle - nextTickMicros) / 1000 * 1000
            for i in filters.indices { filters[i].reset() }
        }
        while nextTickMicros <= t {
            let s = source.sample(atMicros: nextTickMicros)
            let inputs = [s.accel.x, s.accel.y, s.accel.z, s.gyro.x, s.gyro.y, s.gyro.z]
            for i in 0..<6 { filtered[i] = filters[i].step(Double(inputs[i])) }
            filteredTemperature = s.temperature
            nextTickMicros += 1000
        }
    }

    /// Three periods of the lowest bandwidth: the filter's memory of its input
    /// has decayed below 10⁻⁵ by then (whole milliseconds).
    private static func settleMicros(_ bandwidth: (accel: Double, gyro: Double)) -> UInt64 {
        UInt64(3000 / min(bandwidth.accel, bandwidth.gyro)) * 1000
    }

    /// Puts a reading into the 14 data bytes: offsets added, scaled to the full
    /// scales, saturated; axes in standby and a disabled temperature sensor
    /// keep their last value, as do the gyros in cycle mode.
    private mutating func latch(_ r: MPU6050Reading) {
        let standby = register(Register.powerManagement2)
        let accelShift = Int(accelRange.rawValue), gyroShift = Int(gyroRange.rawValue)
        let accel = [r.accel.x, r.accel.y, r.accel.z], gyro = [r.gyro.x, r.gyro.y, r.gyro.z]
        for axis in 0..<3 {
            if standby & (0x20 >> UInt8(axis)) == 0 {
                // XA_OFFS: ±16 g format, bit 0 unused: 8 counts at ±2 g a unit, 16 a step of 2.
                let offset = Int(word(at: Register.accelOffsetXHigh + UInt8(2 * axis)) & ~1) * 8
                put(Int((accel[axis]).rounded()) + offset, shift: accelShift, at: 2 * axis)
            }
            if standby & (0x04 >> UInt8(axis)) == 0 && !isCycling {
                // XG_OFFS_USR: ±1000 °/s format: 4 counts at ±250 °/s per step.
                let offset = Int(word(at: Register.gyroOffsetXHigh + UInt8(2 * axis))) * 4
                put(Int((gyro[axis]).rounded()) + offset, shift: gyroShift, at: 8 + 2 * axis)
            }
        }
        if register(Register.powerManagement1) & 0x08 == 0 {
            let u = UInt16(bitPattern: whoAmI == 0x68 ? r.temperature : Self.mpu6500Temperature(fromMPU6050: r.temperature))
            sample[6] = UInt8(u >> 8)
            sample[7] = UInt8(u & 0xFF)
        }
    }

    /// The same temperature in the 6500 family's counts: the motion sources
    /// give MPU-6050 counts (raw / 340 + 36.53 °C); the 6500 reads (°C − 21) × 333.87.
    static func mpu6500Temperature(fromMPU6050 raw: Int16) -> Int16 {
        let celsius = Double(raw) / 340 + 36.53
        return Int16(clamping: Int(((celsius - 21) * 333.87).rounded()))
    }

    private mutating func put(_ counts: Int, shift: Int, at index: Int) {
        let value = UInt16(bitPattern: Int16(max(-32768, min(32767, counts >> shift))))
        sample[index] = UInt8(value >> 8)
        sample[index + 1] = UInt8(value & 0xFF)
    }

    private func word(at r: UInt8) -> Int16 {
        Int16(bitPattern: UInt16(registers[Int(r)]) << 8 | UInt16(registers[Int(r) + 1]))
    }

    /// One sample's FIFO record, in register order: accel, temperature, gyro X, Y, Z.
    private func fifoRecord() -> [UInt8] {
        let e = register(Register.fifoEnable)
        var bytes: [UInt8] = []
        if e & 0x08 != 0 { bytes += sample[0..<6] }
        if e & 0x80 != 0 { bytes += sample[6..<8] }
        if e & 0x40 != 0 { bytes += sample[8..<10] }
        if e & 0x20 != 0 { bytes += sample[10..<12] }
        if e & 0x10 != 0 { bytes += sample[12..<14] }
        return bytes
    }

    // MARK: Register writes

    private mutating func store(_ byte: UInt8, at register: UInt8, atMicros t: UInt64) {
        switch register {
        case Register.accelXHigh...Register.externalSensorDataEnd, Register.whoAmI, Register.intStatus,
             Register.fifoCountHigh, Register.fifoCountLow:
            return  // read-only
        case Register.fifoReadWrite:
            fifo.push(CollectionOfOne(byte))
        case Register.memoryReadWrite:
            memory[memoryAddress] = byte
            stepMemoryAddress()
        case Register.signalPathReset:
            for i in filters.indices { filters[i].reset() }  // the signal paths start afresh; registers kept
        case Register.userControl:
            let wasRunning = registers[Int(register)] & 0x80 != 0
            registers[Int(register)] = byte & 0xF0                   // the reset bits clear themselves
            if byte & 0x04 != 0 { fifo.clear() }                      // FIFO_RESET
            if byte & 0x08 != 0 || (byte & 0x80 != 0 && !wasRunning) { dmp.reset() }  // DMP_RESET, DMP_EN
            if byte & 0x01 != 0 {                                     // SIG_COND_RESET: paths and data registers
                for i in filters.indices { filters[i].reset() }
                sample = [UInt8](repeating: 0, count: 14)
            }
        case Register.powerManagement1:
            if byte & 0x80 != 0 {  // DEVICE_RESET
                powerOn()
                return
            }
            registers[Int(register)] = byte
            restartSampling(atMicros: t)
        case Register.powerManagement2:
            registers[Int(register)] = byte
            if isCycling { restartSampling(atMicros: t) }
        case Register.sampleRateDivider, Register.config:
            registers[Int(register)] = byte
            filters = []
            restartSampling(atMicros: t)
        default:
            registers[Int(register)] = byte
        }
    }

    /// Sleep state or rate changed: the next sample is one new period away.
    private mutating func restartSampling(atMicros t: UInt64) {
        nextSampleMicros = isAsleep ? nil : t + samplePeriodMicros
        samplingAnchorMicros = t
        filters = []
    }

    /// The DMP memory byte BANK_SEL and MEM_START_ADDR point at.
    private var memoryAddress: Int {
        Int(register(Register.bankSelect) & 0x1F) * 256 + Int(register(Register.memoryStart))
    }

    /// MEM_START_ADDR counts up after each MEM_R_W byte, into the next bank at 256.
    private mutating func stepMemoryAddress() {
        let address = register(Register.memoryStart) &+ 1
        registers[Int(Register.memoryStart)] = address
        if address == 0 {
            let bank = register(Register.bankSelect)
            registers[Int(Register.bankSelect)] = (bank & 0xE0) | ((bank &+ 1) & 0x1F)
        }
    }
}

/// One measurement before offsets and scaling: counts at ±2 g and ±250 °/s.
struct MPU6050Reading {
    var accel: (x: Double, y: Double, z: Double)
    var gyro: (x: Double, y: Double, z: Double)
    var temperature: Int16
}
