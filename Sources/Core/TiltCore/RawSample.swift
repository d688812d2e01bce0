/// One MPU-6050 burst as the sensor sends it: 14 bytes read from register 0x3B,
/// seven big-endian int16 values in register order.
public struct RawSample: Hashable, Sendable {
    /// Bytes in a burst: ACCEL_XOUT_H (0x3B) through GYRO_ZOUT_L (0x48).
    public static let byteCount = 14

    /// ACCEL_XOUT/YOUT/ZOUT, counts (16384 per g at ±2 g; face-up z ≈ +16384).
    public var accel: Axes3<Int16>
    /// TEMP_OUT, counts (°C = count / 340 + 36.53).
    public var temperature: Int16
    /// GYRO_XOUT/YOUT/ZOUT, counts (131.072 per °/s at ±250 °/s).
    public var gyro: Axes3<Int16>

    /// A sample from counts; temperature and gyro 0 unless given.
    @inlinable public init(accel: Axes3<Int16>, temperature: Int16 = 0, gyro: Axes3<Int16> = .init(x: 0, y: 0, z: 0)) {
        self.accel = accel
        self.temperature = temperature
        self.gyro = gyro
    }

    /// Decodes the 14-byte burst starting at `offset` in `bytes`.
    /// The caller guarantees 14 bytes are there.
    @inlinable public init(burst bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
        @inline(__always) func word(_ i: Int) -> Int16 {
            Int16(bitPattern: UInt16(bytes[offset + 2 * i]) << 8 | UInt16(bytes[offset + 2 * i + 1]))
        }
        self.init(
            accel: Axes3(x: word(0), y: word(1), z: word(2)),
            temperature: word(3),
            gyro: Axes3(x: word(4), y: word(5), z: word(6)))
    }

    /// Decodes a 14-byte burst; nil when `bytes` holds another count.
    public init?(burst bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        let array = Array(bytes)
        self = array.withUnsafeBytes { RawSample(burst: $0) }
    }

    /// The 14 bytes of the burst, big-endian, in register order.
    public var burstBytes: [UInt8] {
        [accel.x, accel.y, accel.z, temperature, gyro.x, gyro.y, gyro.z].flatMap { word in
            let u = UInt16(bitPattern: word)
            return [UInt8(u >> 8), UInt8(u & 0xFF)]
        }
    }
}
