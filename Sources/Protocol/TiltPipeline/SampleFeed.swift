import TiltCore
import WireProtocol

/// The readings in a board's byte stream, for jobs that want the sensor's
/// values rather than the physics (`tiltserial calibrate`): the format found
/// as `HostSession` finds it, then our binary frames or a known sketch's text
/// lines, converted with HELLO's full scales and no axis mapping (the
/// sensor's own axes). Pure: the shell passes each chunk with its host
/// receive time (text formats carry no board time).
public struct SampleFeed: Sendable {
    /// What a chunk of bytes turned out to hold.
    public enum Event: Hashable, Sendable {
        /// The stream's format was decided (our frames, i2cdevlib or MotionCal text).
        case formatDetected(StreamFormat)
        /// The board introduced itself (its clock restarts with it).
        case hello(HelloFrame)
        /// A reading: its board time (or receive time for text) and its values
        /// in the iOS convention on the sensor's axes.
        case sample(TimedSample, MotionSample)
    }

    /// The detected format; nil while undecided.
    public private(set) var format: StreamFormat?
    /// Counts to g with HELLO's full scales (±2 g until a HELLO says otherwise).
    public private(set) var converter = SampleConverter()
    private var detector: FormatDetector
    private var decoder = FrameDecoder()
    private var i2cdevlib = I2CDevLibReader()
    private var motionCal = MotionCalReader()

    /// A feed that gives up detecting the format after `detectionLimit` bytes.
    public init(detectionLimit: Int = 2048) {
        detector = FormatDetector(limit: detectionLimit)
    }

    /// Digests one chunk received at host time `receivedAt`.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, at receivedAt: HostTime, _ handle: (Event) -> Void) {
        if bytes.isEmpty { return }
        guard let format else {
            guard let found = detector.detect(bytes) else { return }
            format = found.format
            handle(.formatDetected(found.format))
            // What the detector looked at goes through the chosen reader, then the rest of this chunk.
            found.seen.withUnsafeBytes { receive($0, at: receivedAt, handle) }
            if found.restStart < bytes.count {
                receive(UnsafeRawBufferPointer(rebasing: bytes[found.restStart...]), at: receivedAt, handle)
            }
            return
        }
        let converter = self.converter
        switch format {
        case .binaryProtocol:
            var decoder = self.decoder
            var ranges: (AccelRange, GyroRange)?
            decoder.feed(bytes) { frame in
                switch frame {
                case .hello(let hello):
                    if let accel = hello.accelRange, let gyro = hello.gyroRange { ranges = (accel, gyro) }
                    handle(.hello(hello))
                case .sample(let sample):
                    var c = converter
                    if let ranges { c.accelRange = ranges.0; c.gyroRange = ranges.1 }
                    handle(.sample(sample, c.convert(sample.raw)))
                default: break
                }
            }
            self.decoder = decoder
            if let ranges {
                self.converter.accelRange = ranges.0
                self.converter.gyroRange = ranges.1
            }
        case .i2cdevlib:
            i2cdevlib.feed(bytes, receivedAt: receivedAt) { handle(.sample($0, converter.convert($0.raw))) }
        case .motionCal:
            motionCal.feed(bytes, receivedAt: receivedAt) { handle(.sample($0, converter.convert($0.raw))) }
        }
    }

    /// Array convenience (tests).
    public mutating func receive(_ bytes: [UInt8], at receivedAt: HostTime, _ handle: (Event) -> Void) {
        bytes.withUnsafeBytes { receive($0, at: receivedAt, handle) }
    }
}
