import TiltCore

/// What the emulated sensor feels: a motion script or a recorded CSV, plus noise.
/// Produces raw MPU-6050 counts at ±2 g / ±250 °/s for any board time.
public struct Motion: MotionSource {
    /// Where the poses come from: a script or a recording.
    public enum Path: Sendable {
        /// Poses over time (`tiltsim --script`, the named scenarios).
        case script(MotionScript)
        /// Recorded samples (SampleCSV); each holds until the next one's time,
        /// times taken relative to the first row.
        case recorded([TimedSample])
    }

    /// The script or recording played.
    public var path: Path
    /// Noise added to every sample (`.none`: exact counts).
    public var noise: SensorNoise
    /// Play the path again and again (`loopMicros` each round) instead of holding its end.
    public var loops: Bool

    /// A motion along `path`, without noise and holding its end unless told.
    public init(_ path: Path, noise: SensorNoise = .none, loops: Bool = false) {
        self.path = path
        self.noise = noise
        self.loops = loops
    }

    /// One round when looping: the script's length, or the recording's plus its
    /// last row's gap (so every row holds as long as it did when recorded).
    public var loopMicros: UInt64 {
        switch path {
        case .script(let script): script.duration > 0 ? UInt64(min(script.duration, MotionScript.maximumSeconds) * 1e6) : 0  // NaN: 0
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
            // Rotation rate (body frame) from the pose's change over the next millisecond.
            let rate = pose.orientation.bodyRate(to: script.pose(at: seconds + 0.001).orientation, seconds: 0.001)
            let n = noise.gyro()
            let gyro = Axes3(x: Self.gyroCounts(rate.x + n.x), y: Self.gyroCounts(rate.y + n.y), z: Self.gyroCounts(rate.z + n.z))
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

    /// The scripted pose's orientation; nil for recorded samples (they hold no heading).
    public func orientation(atMicros micros: UInt64) -> Quaternion? {
        guard case .script(let script) = path else { return nil }
        return script.pose(at: Double(micros) / 1e6).orientation
    }

    /// 25 °C: (25 − 36.53) × 340.
    static let roomTemperature: Int16 = -3920

    static func gyroCounts(_ dps: Double) -> Int16 {
        Int16(max(-32768, min(32767, (dps * 131.072).rounded())))
    }
}
