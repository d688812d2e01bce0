import TiltCore

/// One piece of what a board sent, as `tiltserial monitor` shows it. The
/// buffers are valid only during the `emit` call that hands them out.
public enum MonitorItem {
    /// A line of text without its line end: UTF-8 with no control characters
    /// (tabs kept), so printing it cannot upset a terminal. A line longer than
    /// `MonitorReader.lineLimit` bytes comes in pieces.
    case text(UnsafeRawBufferPointer)
    /// A valid frame of a type this protocol version knows.
    case frame(Frame)
    /// Anything else: at most `MonitorReader.bytesPerHexLine` bytes.
    case bytes(UnsafeRawBufferPointer)
}

/// Splits a byte stream that may mix text lines and protocol frames (a sketch
/// that prints while it streams, a boot banner, a wrong baud rate) into text
/// lines, frames and left-over bytes, in order, losing nothing. Pure: bytes
/// in, items out; the shell decides when the line is idle (`flush`).
///
/// How it tells them apart without guessing:
/// - A frame is `COBS(type body crc) 0x00`, at most 22 bytes before its 0x00
///   (SAMPLE), and its second byte is its type, one of 0x01-0x05, 0x10-0x17:
///   control characters, never text. So a byte can start a frame only if the
///   byte after it is a type byte (or has not arrived yet) and it is at most
///   22 bytes back: every other byte is released at once to the text/hex
///   stage. At a 0x00 the held bytes are checked for a whole frame of a known
///   type ending there (COBS, length, CRC: `Frame.parse`).
/// - Text is printable ASCII, tab and UTF-8 (bytes from 0x80); CR, LF and
///   CRLF end a line. A line is shown as soon as its line end arrives (the
///   line end itself may still turn out to be a frame's first byte, so it is
///   held back, but the line before it is complete either way).
/// - Anything else, and any line that is not valid UTF-8 or holds a C1
///   control, is shown as bytes (hex), 16 to a line. Among such bytes, CR
///   and LF are part of them, and printable ASCII counts as text only from
///   4 in a row or when a line end follows (noise at a wrong baud rate stays
///   one block of hex). Held bytes that were not a frame after all (a
///   damaged frame, one cut off) are shown as bytes too.
///
/// Its buffers are reserved once, so steady state does not allocate.
public struct MonitorReader: Sendable {
    /// The longest text line shown in one piece, bytes.
    public static let lineLimit = 256
    /// Bytes per `.bytes` item.
    public static let bytesPerHexLine = 16
    /// Encoded frame lengths of the known types (type, body and CRC, plus the
    /// COBS code byte; without the delimiter), longest first.
    static let frameLengths: [Int] = Set(FrameType.allCases.map { $0.bodyCount + 4 }).sorted(by: >)
    static let longestFrame = frameLengths[0]

    /// Bytes that may still be (the start of) a frame.
    var held: [UInt8] = []
    var line: [UInt8] = []
    var hex: [UInt8] = []
    /// The line end at `held[0]` already ended its line (`release` skips it).
    var endedEarly = false
    /// The last line end was a CR: a LF right after it ends nothing more.
    var afterCR = false
    /// The line so far was shown in part (too long, or idle): its line end
    /// shows no further (empty) line.
    var continued = false
    /// The last item was a frame: a 0x00 right after it is idle filler (an
    /// empty run, docs/protocol.md), not worth a line of hex.
    var afterFrame = false
    /// Nothing came yet: a first byte 0x00 is the delimiter our firmware sends
    /// as it boots (so a frame a reset cut short ends there), not data; it
    /// showed as a lone `HEX 00` line every time a board started.
    var atStart = true

    /// A reader at the start of a stream, its buffers reserved once.
    public init() {
        held.reserveCapacity(Self.longestFrame + 1)
        line.reserveCapacity(Self.lineLimit)
        hex.reserveCapacity(Self.bytesPerHexLine)
    }

    /// Bytes held back, waiting for more (a possible frame, an unfinished line).
    public var pendingByteCount: Int { held.count + line.count + hex.count }

    /// Reads `bytes`, emitting every item they complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (MonitorItem) -> Void) {
        for byte in bytes { take(byte, emit) }
    }

    /// Array convenience (tests, tools).
    public mutating func feed(_ bytes: [UInt8], _ emit: (MonitorItem) -> Void) {
        bytes.withUnsafeBytes { feed($0, emit) }
    }

    /// The line went quiet: shows whatever is held (an unfinished line, a
    /// partial frame as bytes), so nothing waits for more input.
    public mutating func flush(_ emit: (MonitorItem) -> Void) {
        releaseHeld(emit)
        endPieces(emit)
    }

    // MARK: - Frames

    mutating func take(_ byte: UInt8, _ emit: (MonitorItem) -> Void) {
        if atStart {
            atStart = false
            if byte == WireFormat.delimiter { return }
        }
        if byte == WireFormat.delimiter {
            delimiter(emit)
            return
        }
        held.append(byte)
        var start = 0
        while start < held.count - 1 {
            if held.count - start <= Self.longestFrame && Self.isFrameType(held[start + 1]) { break }
            release(held[start], emit)
            start += 1
        }
        if start > 0 { held.removeFirst(start) }
        // A line end that may be a frame's first byte: the line before it is
        // whole either way, so show it now rather than at the next byte.
        if held.count == 1 && Self.isLineEnd(held[0]) && !endedEarly && hex.isEmpty && !line.isEmpty {
            endLine(held[0], emit)
            endedEarly = true
        }
    }

    mutating func delimiter(_ emit: (MonitorItem) -> Void) {
        let count = held.count
        if count == 0 && afterFrame { return }
        for length in Self.frameLengths where length <= count {
            guard let frame = Self.frame(held[(count - length)...]) else { continue }
            for byte in held[0..<(count - length)] { release(byte, emit) }
            held.removeAll(keepingCapacity: true)
            endedEarly = false
            endPieces(emit)
            emit(.frame(frame))
            afterFrame = true
            return
        }
        releaseHeld(emit)
        release(WireFormat.delimiter, emit)
        if !hex.isEmpty { emitHex(emit) }  // a damaged run ends its line of hex with its 0x00
    }

    /// Releases the held bytes that turned out not to be a frame. From a code
    /// byte and a type byte on they look like a damaged or cut-off frame, so
    /// they are shown as bytes even where some happen to be printable.
    mutating func releaseHeld(_ emit: (MonitorItem) -> Void) {
        let frameLike = held.count >= 2
        for byte in held {
            if frameLike && !endedEarly { releaseAsBytes(byte, emit) } else { release(byte, emit) }
        }
        held.removeAll(keepingCapacity: true)
    }

    /// The frame these encoded bytes (no delimiter) hold, if any.
    static func frame(_ encoded: ArraySlice<UInt8>) -> Frame? {
        var payload: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the longest payload, 21 bytes
        return encoded.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &payload) { buffer in
                guard let count = COBS.decode(source, into: buffer) else { return nil }
                guard case .success(let frame) = Frame.parse(payload: UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else {
                    return nil
                }
                return frame
            }
        }
    }

    static func isFrameType(_ byte: UInt8) -> Bool { FrameType(rawValue: byte) != nil }

    // MARK: - Text and bytes

    static func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
    static func isText(_ byte: UInt8) -> Bool { byte == 0x09 || (byte >= 0x20 && byte != 0x7F) }
    static func isASCII(_ byte: UInt8) -> Bool { byte == 0x09 || (byte >= 0x20 && byte < 0x7F) }

    /// Printable bytes among other bytes are shown as text only from this
    /// many in a row (or up to a line end), so noise (a wrong baud rate) does
    /// not break into fragments of text and hex.
    static let shortestTextAmongBytes = 4

    /// A byte that is not part of a frame.
    mutating func release(_ byte: UInt8, _ emit: (MonitorItem) -> Void) {
        if endedEarly {  // the held line end, already shown
            endedEarly = false
            return
        }
        afterFrame = false
        if Self.isLineEnd(byte) {
            if hex.isEmpty {
                endLine(byte, emit)
            } else if line.isEmpty {
                appendHex(byte, emit)  // a CR or LF among other bytes
            } else {
                emitHex(emit)  // short text after bytes, ended by a line end: a line
                endLine(byte, emit)
            }
        } else if Self.isText(byte) && (hex.isEmpty || Self.isASCII(byte)) {
            afterCR = false
            line.append(byte)
            if !hex.isEmpty {
                if line.count >= Self.shortestTextAmongBytes { emitHex(emit) }
            } else if line.count == Self.lineLimit {
                emitLine(emit)
                continued = true
            }
        } else {
            releaseAsBytes(byte, emit)
        }
    }

    /// A byte shown in hex whatever it is.
    mutating func releaseAsBytes(_ byte: UInt8, _ emit: (MonitorItem) -> Void) {
        if endedEarly {
            endedEarly = false
            return
        }
        afterFrame = false
        afterCR = false
        if !line.isEmpty {
            if hex.isEmpty {
                emitLine(emit)
                continued = true
            } else {  // a few printable bytes among other bytes: part of them
                for text in line { appendHex(text, emit) }
                line.removeAll(keepingCapacity: true)
            }
        }
        appendHex(byte, emit)
    }

    mutating func appendHex(_ byte: UInt8, _ emit: (MonitorItem) -> Void) {
        hex.append(byte)
        if hex.count == Self.bytesPerHexLine { emitHex(emit) }
    }

    mutating func endLine(_ end: UInt8, _ emit: (MonitorItem) -> Void) {
        let secondHalfOfCRLF = end == 0x0A && afterCR && line.isEmpty
        if !line.isEmpty || !(secondHalfOfCRLF || continued) { emitLine(emit) }
        afterCR = end == 0x0D
        continued = false
    }

    /// Shows the unfinished line and bytes.
    mutating func endPieces(_ emit: (MonitorItem) -> Void) {
        if !hex.isEmpty { emitHex(emit) }  // bytes come before any text still held with them
        if !line.isEmpty {
            emitLine(emit)
            continued = true
        }
    }

    /// The line as text when it is clean UTF-8, else as bytes.
    mutating func emitLine(_ emit: (MonitorItem) -> Void) {
        line.withUnsafeBytes { bytes in
            if Self.isCleanUTF8(bytes) {
                emit(.text(bytes))
            } else {
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + Self.bytesPerHexLine)
                    emit(.bytes(UnsafeRawBufferPointer(rebasing: bytes[start..<end])))
                    start = end
                }
            }
        }
        line.removeAll(keepingCapacity: true)
    }

    mutating func emitHex(_ emit: (MonitorItem) -> Void) {
        hex.withUnsafeBytes { emit(.bytes($0)) }
        hex.removeAll(keepingCapacity: true)
    }

    /// Valid UTF-8 without C1 controls (U+0080-U+009F), which some terminals obey.
    static func isCleanUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                // C1 controls, separators and bidi controls would reorder or split the terminal's line: shown as bytes.
                if OneLineText.reordersOrBreaksLines(scalar.value) { return false }
            case .emptyInput:
                return true
            case .error:
                return false
            }
        }
    }
}
