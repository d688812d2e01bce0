/// The `--record` file: every chunk of bytes read from (or written to) the
/// board, with the host's receive time, so `tiltserial replay` can feed the
/// pipeline exactly what the live run saw.
///
/// Layout (little-endian):
///
///     header  "TILTREC1" (8 bytes), baud u32
///     record  direction u8 (0 from the board, 1 to the board, 2 the port was
///             reopened after an unplug: no bytes), host time µs u64,
///             length u16, then `length` bytes
///
/// A record's chunk is at most 65535 bytes; the writer splits longer ones.
/// A file cut short (the host was killed mid-write) replays up to its last
/// whole record and says so.
public enum Recording {
    public static let magic: [UInt8] = Array("TILTREC1".utf8)
    public static let headerSize = 12
    public static let recordHeaderSize = 11

    public enum Direction: UInt8, Sendable {
        case fromBoard = 0
        case toBoard = 1
        /// No bytes: the port was reopened after an unplug here (`HostSession.linkRestarted()`),
        /// so a replay joins the timelines exactly where the live run did.
        case linkRestarted = 2
    }

    public static func header(baud: UInt32) -> [UInt8] {
        magic + withUnsafeBytes(of: baud.littleEndian) { Array($0) }
    }

    /// Appends one record per ≤ 65535-byte piece of `bytes`.
    public static func append(_ bytes: UnsafeRawBufferPointer, direction: Direction, hostMicros: UInt64, to out: inout [UInt8]) {
        var start = 0
        repeat {
            let count = min(bytes.count - start, Int(UInt16.max))
            out.append(direction.rawValue)
            withUnsafeBytes(of: hostMicros.littleEndian) { out.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt16(count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
            start += count
        } while start < bytes.count
    }

    public struct Chunk: Sendable {
        public var direction: Direction
        public var hostMicros: UInt64
        /// Where the chunk's bytes are in the file.
        public var range: Range<Int>
    }

    public enum ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        case notARecording
        case badDirection(offset: Int)

        public var description: String {
            switch self {
            case .notARecording:
                "not a tiltserial recording (no TILTREC1 header); for CSV samples use a .csv file, for a raw capture record with --record"
            case .badDirection(let offset):
                "recording damaged at byte \(offset): unknown direction byte"
            }
        }
    }

    public struct Contents: Sendable {
        public var baud: UInt32
        public var chunks: [Chunk]
        /// Bytes at the end that do not form a whole record (a cut-short file).
        public var truncatedBytes: Int
    }

    public static func read(_ file: [UInt8]) throws(ReadError) -> Contents {
        guard file.count >= headerSize, Array(file[0..<8]) == magic else { throw .notARecording }
        let baud = UInt32(file[8]) | UInt32(file[9]) << 8 | UInt32(file[10]) << 16 | UInt32(file[11]) << 24
        var chunks: [Chunk] = []
        var offset = headerSize
        while offset + recordHeaderSize <= file.count {
            guard let direction = Direction(rawValue: file[offset]) else { throw .badDirection(offset: offset) }
            var micros: UInt64 = 0
            for i in 0..<8 { micros |= UInt64(file[offset + 1 + i]) << (8 * UInt64(i)) }
            let length = Int(file[offset + 9]) | Int(file[offset + 10]) << 8
            let start = offset + recordHeaderSize
            guard start + length <= file.count else { break }
            chunks.append(Chunk(direction: direction, hostMicros: micros, range: start..<(start + length)))
            offset = start + length
        }
        return Contents(baud: baud, chunks: chunks, truncatedBytes: file.count - offset)
    }
}
