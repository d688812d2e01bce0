import TiltCore

/// The register file of a virtual MPU-6050, as its I2C interface sees it.
///
/// Pure value: the TWI glue feeds it bus events with the simulated time; new
/// samples are taken lazily, at the exact period boundaries, when the bus next
/// touches the part (a burst read always sees one consistent sample).
public struct MPU6050Model: Sendable {
    /// Register addresses this model gives meaning to.
    public enum Register {
        public static let sampleRateDivider: UInt8 = 0x19  // SMPLRT_DIV
        public static let config: UInt8 = 0x1A             // CONFIG (DLPF_CFG bits 2:0)
        public static let gyroConfig: UInt8 = 0x1B         // GYRO_CONFIG (FS_SEL bits 4:3)
        public static let accelConfig: UInt8 = 0x1C        // ACCEL_CONFIG (AFS_SEL bits 4:3)
        public static let intEnable: UInt8 = 0x38          // INT_ENABLE
        public static let intStatus: UInt8 = 0x3A          // INT_STATUS (bit 0 data ready)
        public static let accelXHigh: UInt8 = 0x3B         // first of 14 data registers
        public static let gyroZLow: UInt8 = 0x48           // last data register
        public static let powerManagement1: UInt8 = 0x6B   // PWR_MGMT_1 (bit 7 reset, bit 6 sleep)
        public static let whoAmI: UInt8 = 0x75             // WHO_AM_I, reads 0x68
    }

    /// The 128 registers (index = register address).
    public private(set) var registers: [UInt8]
    /// The register the next read or write goes to.
    public private(set) var pointer: UInt8 = 0
    /// Simulated time of the next sample; nil while asleep.
    public private(set) var nextSampleMicros: UInt64?
    /// Samples taken since power-on.
    public private(set) var sampleCount: UInt64 = 0
    private var expectingPointer = false

    public init() {
        registers = [UInt8](repeating: 0, count: 128)
        powerOn()
    }

    /// Power-on reset: every register to its default, asleep (PWR_MGMT_1 = 0x40).
    public mutating func powerOn() {
        for i in registers.indices { registers[i] = 0 }
        registers[Int(Register.powerManagement1)] = 0x40
        registers[Int(Register.whoAmI)] = 0x68
        pointer = 0
        expectingPointer = false
        nextSampleMicros = nil
    }

    public var isAsleep: Bool { registers[Int(Register.powerManagement1)] & 0x40 != 0 }

    /// Gyro output rate: 1 kHz with the low-pass filter on (DLPF_CFG 1...6), else 8 kHz.
    public var gyroOutputRateHz: UInt64 {
        let dlpf = registers[Int(Register.config)] & 0x07
        return (1...6).contains(dlpf) ? 1000 : 8000
    }

    /// Sample period: (1 + SMPLRT_DIV) / gyro output rate, in whole microseconds
    /// (exact: 125 or 1000 µs per divider step).
    public var samplePeriodMicros: UInt64 {
        (1_000_000 / gyroOutputRateHz) * (1 + UInt64(registers[Int(Register.sampleRateDivider)]))
    }

    public var accelRange: AccelRange { AccelRange(rawValue: (registers[Int(Register.accelConfig)] >> 3) & 3)! }
    public var gyroRange: GyroRange { GyroRange(rawValue: (registers[Int(Register.gyroConfig)] >> 3) & 3)! }

    /// A START addressed to the part. A write transaction's first byte sets the
    /// register pointer.
    public mutating func begin(read: Bool, atMicros t: UInt64, source: inout some MotionSource) {
        advance(toMicros: t, source: &source)
        expectingPointer = !read
    }

    /// A byte written by the master.
    public mutating func write(_ byte: UInt8, atMicros t: UInt64) {
        if expectingPointer {
            pointer = byte & 0x7F
            expectingPointer = false
            return
        }
        store(byte, at: pointer, atMicros: t)
        pointer = (pointer &+ 1) & 0x7F
    }

    /// A byte read by the master.
    public mutating func read() -> UInt8 {
        let value = registers[Int(pointer)]
        if pointer == Register.intStatus {
            registers[Int(pointer)] &= ~0x01  // data-ready clears on read
        }
        pointer = (pointer &+ 1) & 0x7F
        return value
    }

    /// Takes the newest sample due by `t`, if any (samples skipped by a slow
    /// reader are never asked of the source).
    public mutating func advance(toMicros t: UInt64, source: inout some MotionSource) {
        guard let next = nextSampleMicros, t >= next else { return }
        let period = samplePeriodMicros
        let sampleTime = next + (t - next) / period * period
        latch(source.sample(atMicros: sampleTime))
        nextSampleMicros = sampleTime + period
    }

    private mutating func store(_ byte: UInt8, at register: UInt8, atMicros t: UInt64) {
        switch register {
        case Register.accelXHigh...Register.gyroZLow, Register.whoAmI, Register.intStatus:
            return  // read-only
        case Register.powerManagement1:
            if byte & 0x80 != 0 {  // DEVICE_RESET
                powerOn()
                return
            }
            registers[Int(register)] = byte
        case Register.sampleRateDivider, Register.config:
            registers[Int(register)] = byte
        default:
            registers[Int(register)] = byte
            return
        }
        // Sleep state or rate changed: the next sample is one new period away.
        nextSampleMicros = isAsleep ? nil : t + samplePeriodMicros
    }

    private mutating func latch(_ sample: RawSample) {
        let accelShift = Int16(accelRange.rawValue)
        let gyroShift = Int16(gyroRange.rawValue)
        var r = Int(Register.accelXHigh)
        func put(_ word: Int16) {
            let u = UInt16(bitPattern: word)
            registers[r] = UInt8(u >> 8)
            registers[r + 1] = UInt8(u & 0xFF)
            r += 2
        }
        put(sample.accel.x >> accelShift)
        put(sample.accel.y >> accelShift)
        put(sample.accel.z >> accelShift)
        put(sample.temperature)
        put(sample.gyro.x >> gyroShift)
        put(sample.gyro.y >> gyroShift)
        put(sample.gyro.z >> gyroShift)
        registers[Int(Register.intStatus)] |= 0x01
        sampleCount += 1
    }
}
