/// Why a PBM or PGM image could not be read. `description` is one line naming
/// the problem and, where it helps, the fix.
///
/// `format` names what the file was being read as: the family and its magic
/// number, e.g. "PBM P4" or "PGM P2". Byte offsets count from the file's start.
public enum NetpbmError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file does not start with the family's magic numbers (`expected`:
    /// "PBM" wants P1 or P4, "PGM" P2 or P5); `found` is its first bytes.
    case wrongMagic(expected: String, found: [UInt8])
    /// The file ends before a header field (`field`: "width", "height", "maxval").
    case endsBefore(format: String, field: String)
    /// A header field or sample is larger than `max`.
    case numberTooLarge(format: String, field: String, max: Int)
    /// Where a decimal `field` should start, byte `offset` is `found` instead.
    case notANumber(format: String, field: String, offset: Int, found: UInt8)
    /// A raw format lacks the single whitespace byte before its raster, at `offset`.
    case noRasterSeparator(format: String, offset: Int)
    /// A zero width or height.
    case emptyImage(format: String, width: Int, height: Int)
    /// A PGM maxval of 0.
    case zeroMaxval(format: String)
    /// The header promises more than the rest of the file can hold: `needed`
    /// bytes at least (P1: pixels), `available` left.
    case tooFewBytes(format: String, width: Int, height: Int, needed: Int, available: Int)
    /// A raw raster of `needed` bytes with only `available` left after its header.
    case rasterTooShort(format: String, needed: Int, available: Int)
    /// A plain file ends after `read` of its `total` pixels or samples.
    case endsAfter(format: String, read: Int, total: Int)
    /// A plain PBM pixel (number `index`, at x, y) is `found`, not 0 or 1.
    case badPixel(index: Int, x: Int, y: Int, found: UInt8)
    /// A PGM sample (number `index`, at x, y) is `value`, above the file's `maxval`.
    case aboveMaxval(format: String, index: Int, x: Int, y: Int, value: Int, maxval: Int)

    /// One line for people: where the file is wrong (pixel index and x, y where known).
    public var description: String {
        switch self {
        case .wrongMagic(let expected, let found):
            "\(expected): expected magic number \(expected == "PBM" ? "P1 or P4" : "P2 or P5") at the start, found \(Self.describeMagic(found))"
        case .endsBefore(let format, let field):
            "\(format): file ends before the \(field)"
        case .numberTooLarge(let format, let field, let max):
            "\(format): \(field) is larger than \(max)"
        case .notANumber(let format, let field, let offset, let found):
            "\(format): expected a decimal \(field) at byte \(offset), found \(Self.describe(found))"
        case .noRasterSeparator(let format, let offset):
            "\(format): expected one whitespace byte before the raster at byte \(offset)"
        case .emptyImage(let format, let width, let height):
            "\(format): width and height must be positive, got \(width)x\(height)"
        case .zeroMaxval(let format):
            "\(format): maxval must be 1...65535, got 0"
        case .tooFewBytes(let format, let width, let height, let needed, let available) where format == "PBM P1":
            "\(format): \(width)x\(height) needs \(needed) pixels, the file has only \(available) bytes left"
        case .tooFewBytes(let format, let width, let height, let needed, let available):
            "\(format): \(width)x\(height) needs at least \(needed) more bytes, the file has \(available)"
        case .rasterTooShort(let format, let needed, let available):
            "\(format): raster needs \(needed) bytes, file has \(available)"
        case .endsAfter(let format, let read, let total):
            "\(format): file ends after \(read) of \(total) \(format.hasPrefix("PBM") ? "pixels" : "samples")"
        case .badPixel(let index, let x, let y, let found):
            "PBM P1: pixel \(index) (x \(x), y \(y)) is \(Self.describe(found)); only 0 and 1 are allowed"
        case .aboveMaxval(let format, let index, let x, let y, let value, let maxval):
            "\(format): sample \(index) (x \(x), y \(y)) is \(value), above maxval \(maxval)"
        }
    }

    /// A byte as an error shows it: printable ASCII quoted, anything else in hex.
    static func describe(_ b: UInt8) -> String {
        (0x21...0x7E).contains(b) ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
    }

    /// A wrong magic number on one line: printable text quoted, anything else as bytes.
    static func describeMagic(_ head: [UInt8]) -> String {
        guard head.count >= 2 else { return "too few bytes" }
        if head.allSatisfy({ (0x21...0x7E).contains($0) }) { return "'\(String(decoding: head, as: UTF8.self))'" }
        return head.map(describe).joined(separator: ", ")
    }
}
