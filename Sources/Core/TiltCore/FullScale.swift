/// The MPU-6050 accelerometer's full-scale setting (AFS_SEL, ACCEL_CONFIG bits 4:3).
public enum AccelRange: UInt8, CaseIterable, Hashable, Sendable {
    /// ±2 g (AFS_SEL 0), ±4 g (1), ±8 g (2), ±16 g (3).
    case g2 = 0, g4 = 1, g8 = 2, g16 = 3

    /// Full scale in g: 2, 4, 8 or 16.
    public var fullScale: Int32 { 2 << Int32(rawValue) }

    /// Counts per g: 16384, 8192, 4096, 2048.
    public var countsPerG: Int32 { 16384 >> Int32(rawValue) }

    /// Q15.16 units per count. 65536 / countsPerG is a whole power of two, so the
    /// conversion is exact: 4, 8, 16, 32.
    @inlinable public var fixedPerCount: Int32 { 4 << Int32(rawValue) }
}

/// The MPU-6050 gyroscope's full-scale setting (FS_SEL, GYRO_CONFIG bits 4:3).
public enum GyroRange: UInt8, CaseIterable, Hashable, Sendable {
    /// ±250 °/s (FS_SEL 0), ±500 (1), ±1000 (2), ±2000 (3).
    case dps250 = 0, dps500 = 1, dps1000 = 2, dps2000 = 3

    /// Full scale in °/s: 250, 500, 1000 or 2000.
    public var fullScale: Int32 { 250 << Int32(rawValue) }

    /// Q15.16 units per count, using the nominal sensitivity fullScale / 32768
    /// (131.072 counts per °/s at ±250; the datasheet rounds it to 131). With that
    /// nominal value the conversion is exact: 500, 1000, 2000, 4000.
    @inlinable public var fixedPerCount: Int32 { 500 << Int32(rawValue) }
}
