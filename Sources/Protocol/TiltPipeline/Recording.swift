import TiltCore

/// The `--record` file: every chunk of bytes read from (or written to) the
/// board, with the host's receive time, so `tiltserial replay` can feed the
/// pipeline exactly what the live run saw.
///
/// Layout (little-endian):
///
///     header  "TILTREC1" (8 bytes), baud u32
///     record  direction u8 (0 from the board, 1 to the board, 2 the port was
///             reopened after an unplug: no bytes, 3 the user made the current
///             pose the rest pose: no bytes), host time µs u64,
///             length u16, then `length` bytes
///
/// A record's chunk is at most 65535 bytes; the writer splits longer ones.
/// A file cut short (the host was killed mid-write) replays up to its last
/// whole record and says so; one shorter than the header is an error.
/// `Recording.Reader` reads a file of any size block by block.
public enum Recording {
    /// The file's first 8 bytes: "TILTREC1".
    public static let magic: [UInt8] = Array("TILTREC1".utf8)
    /// Header bytes: the magic and the baud rate (u32).
    public static let headerSize = 12
    /// Bytes before a record's payload: direction (u8), host time µs (u64), length (u16).
    public static let recordHeaderSize = 11

    /// What a record holds: bytes each way, or a marker with no bytes.
    public enum Direction: UInt8, Sendable {
        /// Bytes read from the board.
        case fromBoard = 0
        /// Bytes written to the board.
        case toBoard = 1
        /// No bytes: the port was reopened after an unplug here (`HostSession.linkRestarted()`),
        /// so a replay joins the timelines exactly where the live run did.
        case linkRestarted = 2
        /// No bytes: the user made the current pose the rest pose here (the live
        /// view's `c`, `HostDriver.recalibrate`), so a replay does it at the same point.
        case recalibrated = 3
    }

    /// The 12-byte file header for a port opened at `baud`.
    public static func header(baud: UInt32) -> [UInt8] {
        magic + withUnsafeBytes(of: baud.littleEndian) { Array($0) }
    }

    /// Appends one record per ≤ 65535-byte piece of `bytes`.
    public static func append(_ bytes: UnsafeRawBufferPointer, direction: Direction, at time: HostTime, to out: inout [UInt8]) {
        var start = 0
        repeat {
            let count = min(bytes.count - start, Int(UInt16.max))
            out.append(direction.rawValue)
            withUnsafeBytes(of: time.micros.littleEndian) { out.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt16(count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
            start += count
        } while start < bytes.count
    }

    /// One record of a file read whole.
    public struct Chunk: Sendable {
        /// Which way the bytes went, or which marker this is.
        public var direction: Direction
        /// Host receive (or send) time (the file's µs since the run started).
        public var hostTime: HostTime
        /// Where the chunk's bytes are in the file.
        public var range: Range<Int>
    }

    /// What is wrong with a file read as a recording; what the user should do
    /// about it is the command's to say (tiltserial's `Failure(replaying:_:)`).
    public enum ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The file does not start with "TILTREC1".
        case notARecording
        /// The file ends inside the 12-byte header (`bytes` long).
        case tooShort(bytes: Int)
        /// A record at file offset `offset` has a direction byte other than 0...3.
        case badDirection(offset: Int)

        /// One line naming the fix, for the command to print.
        public var description: String {
            switch self {
            case .notARecording:
                "not a tiltserial recording (no TILTREC1 header)"
            case .tooShort(let bytes):
                "too short for a tiltserial recording (\(bytes) \(bytes == 1 ? "byte" : "bytes"); its header alone is \(headerSize))"
            case .badDirection(let offset):
                "recording damaged at byte \(offset): unknown direction byte"
            }
        }
    }

    /// A whole file, read into memory.
    public struct Contents: Sendable {
        /// The baud rate the port was opened at (from the header).
        public var baud: UInt32
        /// The records, in file order.
        public var chunks: [Chunk]
        /// Bytes at the end that do not form a whole record (a cut-short file).
        public var truncatedBytes: Int
    }

    /// Reads a whole file held in memory (tests, tools); `Reader` streams.
    public static func read(_ file: [UInt8]) throws(ReadError) -> Contents {
        var reader = Reader()
        var chunks: [Chunk] = []
        try file.withUnsafeBytes { raw in
            Result { () throws(ReadError) in
                try reader.feed(raw) { record in
                    chunks.append(Chunk(direction: record.direction, hostTime: record.hostTime, range: record.offset..<(record.offset + record.bytes.count)))
                }
            }
        }.get()
        let truncated = try reader.finish()
        return Contents(baud: reader.baud ?? 0, chunks: chunks, truncatedBytes: truncated)
    }
}
