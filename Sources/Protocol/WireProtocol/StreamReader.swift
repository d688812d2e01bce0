import TiltCore

/// The one front end for a board's byte stream: detects the format from the
/// first bytes (`FormatDetector`, replaying what it looked at so nothing is
/// lost), then reads it with the matching reader (our frames through
/// `FrameDecoder`, or an i2cdevlib or MotionCal sketch's text lines), and
/// counts what it saw. Pure: the caller passes each chunk with its host
/// receive time, which stamps text samples (those formats carry no board
/// time). Steady state allocates nothing.
///
/// `HostSession` runs the physics on what it delivers; `tiltserial
/// calibrate` takes the readings alone.
public struct StreamReader: Sendable {
    /// What a chunk of bytes turned out to hold, in stream order.
    public enum Event: Hashable, Sendable {
        /// The stream's format was decided (our frames, i2cdevlib or MotionCal text).
        case formatDetected(StreamFormat)
        /// A reading: a SAMPLE frame's (board time unwrapped to 64 bits, stale
        /// ones already dropped) or a text line's (stamped with its receive time).
        case sample(TimedSample)
        /// Any other frame, as decoded (HELLO, READY, PARTS, PONG, echoes of host frames).
        case frame(Frame)
    }

    /// The detected format; nil while undecided.
    public private(set) var format: StreamFormat?
    var detector: FormatDetector
    var decoder = FrameDecoder()
    var i2cdevlib = I2CDevLibReader()
    var motionCal = MotionCalReader()
    /// When the last chunk came (host time).
    var lastReceivedAt: HostTime?
    /// After a gap between reads longer than the 24-bit board time can tell
    /// (2^23 µs, to be safe): when the reads stopped, the newest sample's time
    /// then, and when they resumed, so the tracker can place the first sample
    /// after a drop (`SampleTracker.nowEstimate`). Cleared once the samples
    /// caught up, or `burstMicros` after the reads resumed (what the buffers
    /// held has been read by then; a board whose own clock paused never catches up).
    var silence: (host: HostTime, boardMicros: UInt64, resumed: HostTime)?
    /// How long after a long silence the host's reads may still be draining what the buffers held.
    static let burstMicros: UInt64 = 2_000_000

    /// A reader that gives up detecting the format after `detectionLimit`
    /// bytes, or that reads `format` from the first byte on.
    public init(format: StreamFormat? = nil, detectionLimit: Int = 2048) {
        self.format = format
        detector = FormatDetector(limit: detectionLimit)
    }

    /// Binary protocol: frames, errors, lost and duplicated samples.
    public var decoderCounters: DecoderCounters { decoder.counters }

    /// Text formats: samples, ignored, malformed and overlong lines (of the detected format's reader).
    public var textCounters: TextReaderCounters {
        format == .motionCal ? motionCal.counters : i2cdevlib.counters
    }

    /// What the stream looked like so far, for a "no valid frames" message.
    public var seen: StreamContent { detector.seen }

    /// The bytes format detection looked at (all of them while undecided).
    public var seenBytes: [UInt8] { detector.seenBytes }

    /// The first line received, for a "no valid frames" message.
    public func firstLine(limit: Int = 64) -> ArraySlice<UInt8> { detector.firstLine(limit: limit) }

    /// Bytes format detection examines before it gives up.
    public var detectionLimit: Int { detector.limit }

    /// True once detection examined `detectionLimit` bytes without a verdict:
    /// the caller should stop and report `seen`.
    public var detectionFailed: Bool {
        if case .unknown = detector.result { return format == nil }
        return false
    }

    /// Digests one chunk received at host time `receivedAt`, calling `handle`
    /// for each event in order.
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
        switch format {
        case .binaryProtocol:
            estimateBoardTime(at: receivedAt)
            decoder.feed(bytes) { frame in
                if case .sample(let sample) = frame { handle(.sample(sample)) } else { handle(.frame(frame)) }
            }
        case .i2cdevlib:
            i2cdevlib.feed(bytes, receivedAt: receivedAt) { handle(.sample($0)) }
        case .motionCal:
            motionCal.feed(bytes, receivedAt: receivedAt) { handle(.sample($0)) }
        }
    }

    /// Array convenience (tests, tools).
    public mutating func receive(_ bytes: [UInt8], at receivedAt: HostTime, _ handle: (Event) -> Void) {
        bytes.withUnsafeBytes { receive($0, at: receivedAt, handle) }
    }

    /// The port was reopened after an unplug: the frame decoder drops its
    /// unfinished run and starts its sample tracking afresh
    /// (`FrameDecoder.linkRestarted()`).
    public mutating func linkRestarted() {
        decoder.linkRestarted()
        silence = nil
        lastReceivedAt = nil
    }

    /// Arms the tracker's `nowEstimate` after a long gap between reads (the
    /// host stopped: Ctrl-Z, a laptop asleep), until the samples catch up.
    mutating func estimateBoardTime(at receivedAt: HostTime) {
        defer { lastReceivedAt = receivedAt }
        let tracker = decoder.tracker
        if let last = lastReceivedAt, tracker.hasSample, receivedAt.micros > last.micros, receivedAt.micros(since: last) > 1 << 23 {
            silence = (last, tracker.latestMicros, receivedAt)
        }
        guard let silence else { return }
        // Saturating: a damaged recording's host times may be anything.
        let (sum, overflow) = silence.boardMicros.addingReportingOverflow(receivedAt.micros(since: silence.host))
        let estimate = overflow ? .max : sum
        if estimate > tracker.latestMicros &+ (1 << 23) && receivedAt.micros >= silence.resumed.micros
            && receivedAt.micros(since: silence.resumed) <= Self.burstMicros {
            decoder.tracker.nowEstimate = estimate
        } else {
            self.silence = nil
            decoder.tracker.nowEstimate = nil
        }
    }

    /// The stream ended: the frame decoder counts an unfinished run that is
    /// already oversize (`FrameDecoder.endOfStream()`).
    public mutating func endOfStream() {
        decoder.endOfStream()
    }
}

extension SampleConverter {
    /// Takes HELLO's full-scale ranges when this protocol knows them; false
    /// (ranges unchanged) for selects outside 0...3.
    public mutating func adoptRanges(of hello: HelloFrame) -> Bool {
        guard let accel = hello.accelRange, let gyro = hello.gyroRange else { return false }
        accelRange = accel
        gyroRange = gyro
        return true
    }
}
