import TiltCore

/// The DMP as drivers see it, enough for InvenSense's MotionApps 2.0 (as
/// i2cdevlib's MPU6050_6Axis_MotionApps20 loads and reads it): while
/// USER_CTRL has DMP_EN and FIFO_EN set, every (1 + rate divisor)th sample
/// puts one 42-byte packet into the FIFO and sets INT_STATUS's DMP_INT.
///
/// The code image drivers load into DMP memory is stored (and read back for
/// their verification) but not run: the packet is made from the motion
/// itself. The rate divisor is read where MotionApps 2.0 keeps it (bank 2,
/// 0x16–0x17, big-endian; the i2cdevlib default 1 gives 100 Hz at its 200 Hz
/// sample rate).
///
/// Packet (big-endian 32-bit words): quaternion w, x, y, z in Q30 (the
/// board's exact orientation when the motion source knows it — scripted
/// poses —, else the tilt the accelerometer reads, heading 0); gyro X, Y, Z
/// (the gyro data registers in the high half); accel X, Y, Z at 8192 counts
/// per g in the high half (what MotionApps 2.0 assumes); two bytes of zero.
public struct MPU6050DMP: Sendable, Hashable {
    /// Bytes per FIFO packet (MotionApps 2.0's DMP_PACKET_SIZE): 16 quaternion + 12 gyro + 12 accel + 2.
    public static let packetSize = 42
    /// Where MotionApps 2.0's FIFO rate divisor lives in DMP memory.
    static let rateDivisorAddress = 2 * 256 + 0x16

    private var samplesSinceReset: UInt64 = 0

    /// A DMP just after reset: no packets emitted yet.
    public init() {}

    func emitsPackets(userControl: UInt8) -> Bool { userControl & 0xC0 == 0xC0 }

    func samplesPerPacket(memory: [UInt8]) -> Int {
        1 + Int(memory[Self.rateDivisorAddress]) << 8 + Int(memory[Self.rateDivisorAddress + 1])
    }

    /// DMP_RESET, or DMP_EN written: the packet count starts again.
    mutating func reset() { samplesSinceReset = 0 }

    /// One sample went by: whether it makes a packet.
    mutating func tick(samplesPerPacket: Int) -> Bool {
        samplesSinceReset += 1
        return samplesSinceReset % UInt64(samplesPerPacket) == 0
    }

    /// Samples skipped unseen (bounded catch-up) keep the packets' phase.
    mutating func skip(_ samples: UInt64) { samplesSinceReset += samples }

    /// The packet for a sample at `t`; `data` is the 14 data-register bytes of it.
    func packet(atMicros t: UInt64, source: some MotionSource, data: [UInt8], accelRange: AccelRange) -> [UInt8] {
        func word(_ i: Int) -> Int16 { Int16(bitPattern: UInt16(data[i]) << 8 | UInt16(data[i + 1])) }
        var packet: [UInt8] = []
        packet.reserveCapacity(Self.packetSize)
        func put32(_ v: Int32) {
            let u = UInt32(bitPattern: v)
            packet += [UInt8(u >> 24), UInt8((u >> 16) & 0xFF), UInt8((u >> 8) & 0xFF), UInt8(u & 0xFF)]
        }
        let q = (source.orientation(atMicros: t)
            ?? Quaternion(tiltReading: (Double(word(0)), Double(word(2)), Double(word(4))))).canonical
        for c in [q.w, q.x, q.y, q.z] { put32(Int32(max(-2.0, min(1.999_999_999, c)) * 1_073_741_824)) }
        for i in [8, 10, 12] { put32(Int32(word(i)) << 16) }
        for i in [0, 2, 4] {
            // From the configured scale to 8192 counts per g.
            let counts = (Int(word(i)) << Int(accelRange.rawValue)) >> 1
            put32(Int32(max(-32768, min(32767, counts))) << 16)
        }
        packet += [0, 0]
        return packet
    }
}
