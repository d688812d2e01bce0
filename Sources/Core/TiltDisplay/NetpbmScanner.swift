/// Reads the header tokens of a Netpbm file (whitespace- and comment-separated
/// decimal numbers) and, for the plain formats, the samples that follow.
struct NetpbmScanner {
    let bytes: [UInt8]
    var index: Int
    let format: String

    init(bytes: [UInt8], format: String) {
        self.bytes = bytes
        self.index = 2  // after the magic number
        self.format = format
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }

    /// Skips whitespace and `#` comments (to the end of their line).
    mutating func skipSpaceAndComments() {
        while index < bytes.count {
            let b = bytes[index]
            if Self.isSpace(b) {
                index += 1
            } else if b == UInt8(ascii: "#") {
                while index < bytes.count && bytes[index] != 0x0A && bytes[index] != 0x0D { index += 1 }
            } else {
                return
            }
        }
    }

    /// The next unsigned decimal number; `what` names it in the error.
    mutating func number(_ what: String, max: Int = 1 << 24) throws(NetpbmError) -> Int {
        skipSpaceAndComments()
        guard index < bytes.count else { throw .endsBefore(format: format, field: what) }
        var value = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value * 10 + Int(bytes[index] - 0x30)
            guard value <= max else { throw .numberTooLarge(format: format, field: what, max: max) }
            index += 1
            digits += 1
        }
        guard digits > 0 else {
            throw .notANumber(format: format, field: what, offset: index, found: bytes[index])
        }
        return value
    }

    /// The single whitespace byte that separates a raw format's header from its data.
    mutating func rasterSeparator() throws(NetpbmError) {
        guard index < bytes.count, Self.isSpace(bytes[index]) else {
            throw .noRasterSeparator(format: format, offset: index)
        }
        index += 1
    }

    /// The first two bytes as text; "" if there are fewer.
    static func magic(of bytes: [UInt8]) -> String {
        guard bytes.count >= 2 else { return "" }
        return String(decoding: bytes[0..<2], as: UTF8.self)
    }

    /// The first two bytes (fewer if the file is shorter), for `NetpbmError.wrongMagic`.
    static func head(of bytes: [UInt8]) -> [UInt8] { Array(bytes.prefix(2)) }
}
