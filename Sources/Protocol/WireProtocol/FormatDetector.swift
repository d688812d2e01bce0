/// The stream formats the host can read.
public enum StreamFormat: String, CaseIterable, Hashable, Sendable {
    /// This protocol (docs/protocol.md): our firmware or the emulator.
    case binaryProtocol = "tiltserial binary protocol"
    /// i2cdevlib's MPU6050_raw text (`a/g:` lines).
    case i2cdevlib = "i2cdevlib MPU6050_raw text"
    /// PJRC MotionCal text (`Raw:` lines).
    case motionCal = "MotionCal Raw: text"
}

/// What an undecided stream looked like, for the error message.
public enum StreamContent: String, Hashable, Sendable {
    /// No bytes at all (wrong port, board not running, not reset).
    case nothing
    /// Mostly printable ASCII, but no line of a known format.
    case text
    /// Binary bytes, but no valid frame (often a wrong baud rate).
    case binary
}

/// The detector's verdict.
public enum FormatDetection: Hashable, Sendable {
    /// Not enough bytes yet: feed more.
    case undecided
    /// A valid item of this format was seen.
    case found(StreamFormat)
    /// The byte limit was reached (or `finish()` was called) without a decision.
    case unknown(seen: StreamContent)
}

/// Decides from the first bytes of a stream which format it is: the first
/// decoder among `FrameDecoder`, `I2CDevLibReader` and `MotionCalReader` to
/// produce a valid frame or sample wins. Every byte fed until the decision
/// (whole chunks, so at most `limit` plus one chunk) is kept in `seenBytes`,
/// so the caller can replay them into the chosen reader, then go on with the
/// next chunk, and lose nothing.
public struct FormatDetector: Sendable {
    /// Bytes examined before giving up (the chunk that crosses it is examined whole).
    public let limit: Int
    /// Undecided until a decoder wins or `limit` bytes pass; then the format or "unknown".
    public private(set) var result = FormatDetection.undecided
    /// Every byte fed before the decision, to replay into the chosen reader.
    public private(set) var seenBytes: [UInt8] = []
    /// Bytes that are printable ASCII, tab, CR or LF.
    public private(set) var textByteCount = 0

    var frames = FrameDecoder()
    var i2cdevlib = I2CDevLibReader()
    var motionCal = MotionCalReader()

    /// A detector that gives up after `limit` bytes (at least 1).
    public init(limit: Int = 2048) {
        self.limit = max(limit, 1)
        seenBytes.reserveCapacity(self.limit)
    }

    /// What the bytes so far look like.
    public var seen: StreamContent {
        if seenBytes.isEmpty { return .nothing }
        return textByteCount * 10 >= seenBytes.count * 9 ? .text : .binary
    }

    /// The first line seen (empty lines skipped; up to the next CR or LF, or the
    /// end), at most `limit` bytes: what a "no valid frames" message quotes.
    public func firstLine(limit: Int = 64) -> ArraySlice<UInt8> {
        let lineEnd: (UInt8) -> Bool = { $0 == 0x0A || $0 == 0x0D }
        var start = seenBytes.startIndex
        while start < seenBytes.endIndex && lineEnd(seenBytes[start]) { start += 1 }
        var end = start
        while end < seenBytes.endIndex && end - start < limit && !lineEnd(seenBytes[end]) { end += 1 }
        return seenBytes[start..<end]
    }

    /// Examines more bytes; returns the verdict so far. After a decision,
    /// further bytes are ignored.
    @discardableResult
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> FormatDetection {
        guard result == .undecided else { return result }
        seenBytes.append(contentsOf: bytes)
        for byte in bytes where (byte >= 0x20 && byte < 0x7F) || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            textByteCount += 1
        }
        var found: StreamFormat?
        frames.feed(bytes) { _ in found = found ?? .binaryProtocol }
        i2cdevlib.feed(bytes, receivedAt: .zero) { _ in found = found ?? .i2cdevlib }
        motionCal.feed(bytes, receivedAt: .zero) { _ in found = found ?? .motionCal }
        if let found {
            result = .found(found)
        } else if seenBytes.count >= limit {
            result = .unknown(seen: seen)
        }
        return result
    }

    /// Array convenience.
    @discardableResult
    public mutating func feed(_ bytes: [UInt8]) -> FormatDetection {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Gives up waiting (e.g. at a timeout): the verdict, never `.undecided`.
    public mutating func finish() -> FormatDetection {
        if result == .undecided { result = .unknown(seen: seen) }
        return result
    }
}

/// What a stream's reader takes once its format is found: every byte the
/// detector looked at, then the rest of the chunk that decided it.
public struct FormatFound: Sendable {
    /// The winning format.
    public let format: StreamFormat
    /// The bytes the detector kept (whole chunks, the deciding one included up to `restStart`).
    public let seen: [UInt8]
    /// Where the deciding chunk's bytes not in `seen` start.
    public let restStart: Int
}

extension FormatDetector {
    /// Feeds `bytes`; once a format is found, says what its reader must be fed
    /// (`seen`, then `bytes[restStart...]`), so no byte is lost or read twice.
    public mutating func detect(_ bytes: UnsafeRawBufferPointer) -> FormatFound? {
        let before = seenBytes.count
        guard case .found(let format) = feed(bytes) else { return nil }
        return FormatFound(format: format, seen: seenBytes, restStart: seenBytes.count - before)
    }
}
