import TiltCore
import TiltMotion
import WireProtocol

/// The sensor as the native board reads it: what the motion source feels at
/// a board instant, shifted to the full-scale ranges the firmware set, in a
/// SAMPLE frame numbered as the firmware numbers them.
struct NativeSensor {
    /// What the sensor feels.
    var motion: any MotionSource
    /// The next SAMPLE's sequence number.
    private(set) var sequence: UInt8 = 0

    /// HELLO went out: numbering restarts at 0.
    mutating func restartNumbering() { sequence = 0 }

    /// The sample at lifetime µs `t`, stamped `boardMicros` (24 bits on the
    /// wire); `accelSelect`/`gyroSelect` are the firmware's FS_SEL (each step halves the counts).
    mutating func sample(atLifetime t: UInt64, boardMicros: UInt64, accelSelect: UInt8, gyroSelect: UInt8) -> SampleFrame {
        var raw = motion.sample(atMicros: t)
        if accelSelect > 0 {
            raw.accel = Axes3(x: raw.accel.x >> accelSelect, y: raw.accel.y >> accelSelect, z: raw.accel.z >> accelSelect)
        }
        if gyroSelect > 0 {
            raw.gyro = Axes3(x: raw.gyro.x >> gyroSelect, y: raw.gyro.y >> gyroSelect, z: raw.gyro.z >> gyroSelect)
        }
        let frame = SampleFrame(sequence: sequence, boardTime: UInt32(truncatingIfNeeded: boardMicros) & 0xFF_FFFF, raw: raw)
        sequence &+= 1  // like the firmware: a dropped sample still uses its number
        return frame
    }
}
