/// An Intel HEX file (what the Arduino IDE's "Export compiled binary" and
/// `avr-objcopy -O ihex` write) as a flash image: pure, no I/O.
///
/// Written here rather than using simavr's `read_ihex_chunks` because that one
/// reports only "failed" (on stdout/stderr) and accepts a wrong checksum on
/// some paths; a CI runner has to say which line of which file is broken.
public struct IntelHex: Sendable, Equatable {
    /// Flash from address 0; bytes no record wrote are 0xFF (erased flash).
    public let image: [UInt8]

    /// Images larger than this are refused before any allocation (the largest AVR has 384 KiB).
    public static let maximumImageBytes = 1 << 20

    /// Why a HEX file was refused, with the 1-based line it was found on.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// The 1-based line of the file.
        public let line: Int
        /// What is wrong there, naming the fix ("bad checksum; the file is damaged, export it again").
        public let reason: String
        /// "line N: reason".
        public var description: String { "line \(line): \(reason)" }
    }

    /// Parses records 00 (data), 01 (end), 02 and 04 (segment and linear base; 03 and 05, start addresses, are ignored); checks every checksum.
    public init(parsing text: Substring) throws(ParseError) {
        var image = [UInt8]()
        var base = 0
        var sawEnd = false
        var lineNumber = 0
        var lastRecordLine = 1
        // Split the bytes, not the characters: "\r\n" is one Character in Swift.
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            if sawEnd { throw ParseError(line: lineNumber, reason: "data after the end-of-file record") }
            lastRecordLine = lineNumber
            let bytes = try Self.recordBytes(line, lineNumber: lineNumber)
            let count = Int(bytes[0])
            guard bytes.count == count + 5 else {
                throw ParseError(line: lineNumber, reason: "the record says \(count) data bytes but holds \(bytes.count - 5)")
            }
            let sum = bytes.reduce(UInt8(0)) { $0 &+ $1 }
            guard sum == 0 else { throw ParseError(line: lineNumber, reason: "bad checksum; the file is damaged, export it again") }
            let address = Int(bytes[1]) << 8 | Int(bytes[2])
            let data = bytes[4..<(4 + count)]
            switch bytes[3] {
            case 0x00:
                let start = base + address
                guard start + count <= Self.maximumImageBytes else {
                    throw ParseError(line: lineNumber, reason: "address 0x\(String(start, radix: 16)) is beyond any AVR's flash")
                }
                if image.count < start + count { image += repeatElement(0xFF, count: start + count - image.count) }
                image.replaceSubrange(start..<(start + count), with: data)
            case 0x01:
                sawEnd = true
            case 0x02, 0x04:
                guard count == 2 else { throw ParseError(line: lineNumber, reason: "an address record needs 2 data bytes") }
                let value = Int(data.first!) << 8 | Int(data.last!)
                base = bytes[3] == 0x02 ? value << 4 : value << 16
            case 0x03, 0x05:
                break  // start address: the core starts at the reset vector anyway
            default:
                throw ParseError(line: lineNumber, reason: "unknown record type \(bytes[3]); is this an Intel HEX file?")
            }
        }
        guard sawEnd else {
            throw ParseError(line: lastRecordLine, reason: "no end-of-file record (:00000001FF); the file is cut short")
        }
        guard !image.isEmpty else { throw ParseError(line: lastRecordLine, reason: "no data records: the file holds no program") }
        self.image = image
    }

    /// True when `bytes` start like an Intel HEX file (a ':' record, maybe after blank space).
    public static func looksLikeHex(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): continue
            case UInt8(ascii: ":"): return true
            default: return false
            }
        }
        return false
    }

    private static func recordBytes(_ line: Substring.UTF8View.SubSequence, lineNumber: Int) throws(ParseError) -> [UInt8] {
        let utf8 = Array(line)
        guard utf8.first == UInt8(ascii: ":") else {
            throw ParseError(line: lineNumber, reason: "a record starts with ':'; is this an Intel HEX file?")
        }
        let digits = utf8.dropFirst()
        guard digits.count >= 10, digits.count % 2 == 0 else {
            throw ParseError(line: lineNumber, reason: "a record is ':' and an even number (at least 10) of hex digits")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else {
                throw ParseError(line: lineNumber, reason: "'\(String(decoding: digits[index...(index + 1)], as: UTF8.self))' is not a hex byte")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
