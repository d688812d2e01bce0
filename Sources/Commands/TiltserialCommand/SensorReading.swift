import TiltCore
import TiltMotion
import WireProtocol

/// One sample as the sensor panel shows it (computed at the view's refresh
/// rate, never per sample).
///
/// - Counts, g and °/s per axis are the MPU-6050's own axes and signs, before
///   `--axes` (lying face-up, az reads about +1 g): what checks the wiring.
/// - Pitch and roll are the board's as mounted (after `--axes`), from the
///   accelerometer alone: pitch 0° face-up, 90° upright facing you (the rest
///   pose's angle); roll positive with the right side down.
struct SensorReading: Sendable {
    var raw: RawSample
    var accel: (x: Double, y: Double, z: Double)
    var gyro: (x: Double, y: Double, z: Double)
    /// °C; nil when the stream's format does not carry it (the text sketches).
    var temperature: Double?
    var pitch: Double
    var roll: Double
    /// |a| in g: about 1 when still.
    var magnitude: Double

    init(_ raw: RawSample, converter: SampleConverter, format: StreamFormat?) {
        self.raw = raw
        let perG = Double(converter.accelRange.countsPerG)
        accel = (Double(raw.accel.x) / perG, Double(raw.accel.y) / perG, Double(raw.accel.z) / perG)
        let dpsPerCount = Double(converter.gyroRange.fullScale) / 32768
        gyro = (Double(raw.gyro.x) * dpsPerCount, Double(raw.gyro.y) * dpsPerCount, Double(raw.gyro.z) * dpsPerCount)
        temperature = format == .binaryProtocol ? Double(raw.temperature) / 340 + 36.53 : nil
        // The board's axes in the recipes' convention (gravity z = −1 face-up, y = −1 upright).
        let a = converter.convert(raw).accel
        let ax = Double(a.x.raw) / 65536, ay = Double(a.y.raw) / 65536, az = Double(a.z.raw) / 65536
        pitch = TiltAngles.pitch(ax: ax, ay: ay, az: az)
        roll = TiltAngles.roll(ax: ax, ay: ay, az: az)
        magnitude = (ax * ax + ay * ay + az * az).squareRoot()
    }
}

/// The last `capacity` readings (pitch, roll and g per axis), one per view
/// refresh that brought a new sample: what the sparklines draw. Its storage is
/// allocated once.
struct SensorHistory: Sendable {
    enum Series: Int, CaseIterable, Sendable { case pitch, roll, ax, ay, az }

    let capacity: Int
    private var values: [[Double]]
    private var times: [UInt64]
    private var next = 0
    private(set) var count = 0

    init(capacity: Int = 160) {
        self.capacity = capacity
        values = Array(repeating: Array(repeating: .nan, count: capacity), count: Series.allCases.count)
        times = Array(repeating: 0, count: capacity)
    }

    mutating func append(_ r: SensorReading, atMicros time: UInt64) {
        values[Series.pitch.rawValue][next] = r.pitch
        values[Series.roll.rawValue][next] = r.roll
        values[Series.ax.rawValue][next] = r.accel.x
        values[Series.ay.rawValue][next] = r.accel.y
        values[Series.az.rawValue][next] = r.accel.z
        times[next] = time
        next = (next + 1) % capacity
        count = min(count + 1, capacity)
    }

    /// The last `n` values of `series`, oldest first (fewer when fewer were kept).
    func last(_ n: Int, of series: Series) -> [Double] {
        let k = min(max(n, 0), count)
        return (0..<k).map { values[series.rawValue][(next - k + $0 + capacity) % capacity] }
    }

    /// Time covered by the last `n` values, µs.
    func span(_ n: Int) -> UInt64 {
        let k = min(max(n, 0), count)
        guard k > 1 else { return 0 }
        let newest = times[(next - 1 + capacity) % capacity], oldest = times[(next - k + capacity) % capacity]
        return newest > oldest ? newest - oldest : 0
    }
}

/// Numbers for the live view's columns.
enum Figures {
    /// `value` with `places` decimals (`ForPeople.decimal`); "?" for NaN, "∞" past 9e15.
    static func fixed(_ value: Double, _ places: Int) -> String {
        guard value.isFinite, abs(value) < 9e14 else { return value.isNaN ? "?" : (value < 0 ? "-∞" : "∞") }
        return ForPeople.decimal(value, places: places)
    }

    /// `text` right-aligned in `width` columns (never cut).
    static func right(_ text: String, _ width: Int) -> String {
        let w = TerminalWidth.columns(text)
        return w >= width ? text : String(repeating: " ", count: width - w) + text
    }

    /// `text` left-aligned in `width` columns (never cut).
    static func left(_ text: String, _ width: Int) -> String {
        let w = TerminalWidth.columns(text)
        return w >= width ? text : text + String(repeating: " ", count: width - w)
    }

    /// Samples a second, rounded for people: whole from 10 up.
    static func rate(_ hz: Double) -> String {
        hz >= 9.95 || hz == 0 ? fixed(hz, 0) : fixed(hz, 1)
    }
}
