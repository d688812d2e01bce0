import TiltCore

/// What the emulated sensor feels: a motion script or a recorded CSV, plus noise.
/// Produces raw MPU-6050 counts at ±2 g / ±250 °/s for any board time.
public struct Motion: MotionSource {
    public enum Path: Sendable {
        case script(MotionScript)
        /// Recorded samples (SampleCSV); each holds until the next one's time,
        /// times taken relative to the first row.
        case recorded([TimedSample])
    }

    public var path: Path
    public var noise: SensorNoise
    /// Play the path again and again (`loopMicros` each round) instead of holding its end.
    public var loops: Bool

    public init(_ path: Path, noise: SensorNoise = .none, loops: Bool = false) {
        self.path = path
        self.noise = noise
        self.loops = loops
    }

    /// One round when looping: the script's length, or the recording's plus its
    /// last row's gap (so every row holds as long as it did when recorded).
    public var loopMicros: UInt64 {
        switch path {
        case .script(let script): UInt64(max(0, script.duration) * 1e6)
        case .recorded(let rows):
            rows.count < 2 ? 0 : rows.last!.timeMicros - rows[0].timeMicros + (rows[rows.count - 1].timeMicros - rows[rows.count - 2].timeMicros)
        }
    }

    /// Seconds the motion lasts (after that its last pose holds).
    public var duration: Double {
        switch path {
        case .script(let script): script.duration
        case .recorded(let rows): rows.isEmpty ? 0 : Double(rows.last!.timeMicros - rows[0].timeMicros) / 1e6
        }
    }

    /// The sensor's reading at `micros` after the motion started.
    public mutating func sample(atMicros t: UInt64) -> RawSample {
        let round = loops ? loopMicros : 0
        let micros = round > 0 ? t % round : t
        switch path {
        case .script(let script):
            let seconds = Double(micros) / 1e6
            let pose = script.pose(at: seconds)
            // Rotation rate from the pose's change over the next millisecond:
            // tilting back turns about x, right side down about y (iOS axes).
            let ahead = script.pose(at: seconds + 0.001)
            let n = noise.gyro()
            let gyro = Axes3(
                x: Self.gyroCounts((pose.back - ahead.back) * 1000 + n.x),
                y: Self.gyroCounts((ahead.right - pose.right) * 1000 + n.y),
                z: Self.gyroCounts(n.z))
            return RawSample(accel: pose.accelCounts(noise: noise.accel()), temperature: Self.roomTemperature, gyro: gyro)
        case .recorded(let rows):
            guard let first = rows.first else { return RawSample(accel: Pose.rest.accelCounts()) }
            let t = first.timeMicros + micros
            var low = 0, high = rows.count - 1
            while low < high {  // last row with time <= t
                let mid = (low + high + 1) / 2
                if rows[mid].timeMicros <= t { low = mid } else { high = mid - 1 }
            }
            return rows[low].raw
        }
    }

    /// 25 °C: (25 − 36.53) × 340.
    static let roomTemperature: Int16 = -3920

    static func gyroCounts(_ dps: Double) -> Int16 {
        Int16(max(-32768, min(32767, (dps * 131.072).rounded())))
    }
}
