/// The most frames per second the I2C bus can carry to the SSD1306, timed as
/// our TWI model (CBoardParts/cbp_twi.c) times it: one SCL period is
/// 16 + 2 × TWBR × 4^TWPS CPU cycles, a START and a STOP take one period each,
/// and every byte (address byte included) takes nine (eight bits and the ACK).
/// The measured glass frames/s is read against this ceiling (issue 19).
public struct GlassBusLimit: Sendable, Hashable {
    /// The CPU clock, Hz (16 MHz on the Uno).
    public var cpuHz: UInt64
    /// TWBR, the bit-rate register.
    public var twbr: UInt8
    /// TWSR's prescaler bits (0...3: ×1, ×4, ×16, ×64).
    public var prescalerBits: UInt8

    /// A bus clocked by `twbr` and `prescalerBits` on a `cpuHz` CPU.
    public init(cpuHz: UInt64, twbr: UInt8, prescalerBits: UInt8 = 0) {
        self.cpuHz = cpuHz
        self.twbr = twbr
        self.prescalerBits = prescalerBits & 3
    }

    /// One SCL period in CPU cycles.
    public var sclCycles: UInt64 {
        16 + 2 * UInt64(twbr) * (1 << (2 * UInt64(prescalerBits)))
    }

    /// CPU cycles one frame occupies the bus: `bytes` counts every byte sent,
    /// address bytes included, over `transactions` START...STOP transactions.
    public func frameCycles(bytes: Int, transactions: Int) -> UInt64 {
        let periods = 9 * UInt64(max(bytes, 0)) + 2 * UInt64(max(transactions, 0))
        return periods * sclCycles
    }

    /// Frames per second the bus could carry back to back; 0 for an empty frame
    /// (nothing to bound).
    public func framesPerSecond(bytes: Int, transactions: Int) -> Double {
        let cycles = frameCycles(bytes: bytes, transactions: transactions)
        guard cycles > 0 else { return 0 }
        return Double(cpuHz) / Double(cycles)
    }
}
