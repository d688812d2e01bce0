import TiltCore

/// How one text line of a sketch's output reads.
public enum TextLine: Hashable, Sendable {
    /// A data line.
    case sample(RawSample)
    /// Not a data line (banners, other messages).
    case ignored
    /// Looks like a data line (right prefix) but its fields do not parse.
    case malformed
}

/// A text format printed by an existing sketch.
public protocol TextLineFormat {
    /// How `line` (without its line end) reads in this format.
    static func read(_ line: UnsafeRawBufferPointer) -> TextLine
}

/// What a text reader made of the lines it saw: every line lands in exactly one count.
public struct TextReaderCounters: Hashable, Sendable {
    /// Data lines read as samples.
    public var samples: UInt64 = 0
    /// Lines that are not data (banners and other messages).
    public var ignoredLines: UInt64 = 0
    /// Data lines whose fields do not parse or are out of range.
    public var malformedLines: UInt64 = 0
    /// Lines longer than `LineAssembler.capacity`, dropped.
    public var overlongLines: UInt64 = 0

    /// All counts zero.
    public init() {}
}

/// Reads a sketch's text output into `TimedSample`s.
///
/// Text carries no board time: every sample completed by a chunk is stamped
/// with that chunk's host receive time (a line split across chunks gets the
/// time of the chunk holding its end). Sequence numbers are the reader's own,
/// +1 per sample from 0, so a consumer sees the same shape as from the binary
/// protocol. Fixed buffers only: no allocation per line.
public struct TextSampleReader<Format: TextLineFormat>: Sendable {
    /// Lines read so far, by kind (overlong ones included).
    public var counters: TextReaderCounters {
        var counters = lineCounters
        counters.overlongLines = lines.overlongLines
        return counters
    }

    @usableFromInline var lines = LineAssembler()
    @usableFromInline var lineCounters = TextReaderCounters()
    @usableFromInline var sequence: UInt8 = 0

    /// A reader at the start of a line, sequence 0.
    public init() {}

    /// Bytes of an unfinished line.
    public var pendingByteCount: Int { lines.pendingByteCount }

    /// Reads `bytes` received at host time `receivedAt`. The lines carry no
    /// time, so each sample's board time is its receive time.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer, receivedAt: HostTime, _ deliver: (TimedSample) -> Void
    ) {
        let time = BoardTime(micros: receivedAt.micros)
        var counters = lineCounters
        var sequence = self.sequence
        lines.feed(bytes) { line in
            switch Format.read(line) {
            case .sample(let raw):
                counters.samples += 1
                deliver(TimedSample(time: time, sequence: sequence, raw: raw))
                sequence &+= 1
            case .ignored:
                counters.ignoredLines += 1
            case .malformed:
                counters.malformedLines += 1
            }
        }
        lineCounters = counters
        self.sequence = sequence
    }

    /// Array convenience.
    public mutating func feed(_ bytes: [UInt8], receivedAt: HostTime, _ deliver: (TimedSample) -> Void) {
        bytes.withUnsafeBytes { feed($0, receivedAt: receivedAt, deliver) }
    }
}

/// i2cdevlib's MPU6050_raw output: `a/g:\t<ax>\t<ay>\t<az>\t<gx>\t<gy>\t<gz>`.
public typealias I2CDevLibReader = TextSampleReader<I2CDevLibFormat>
/// PJRC MotionCal's input: `Raw:<ax>,<ay>,<az>,<gx>,<gy>,<gz>,<mx>,<my>,<mz>`.
public typealias MotionCalReader = TextSampleReader<MotionCalFormat>
