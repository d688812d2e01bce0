import TiltCore

/// Portable graymap (PGM) reader: plain `P2` and raw `P5`. Samples are scaled
/// to 0...255 (rounded) when the file's maxval is not 255.
public enum PGM {
    /// Parses a whole PGM file into an 8-bit alpha mask.
    public static func parse(_ bytes: [UInt8]) throws(NetpbmError) -> AlphaMask {
        let magic = NetpbmScanner.magic(of: bytes)
        guard magic == "P2" || magic == "P5" else {
            throw .wrongMagic(expected: "PGM", found: NetpbmScanner.head(of: bytes))
        }
        var scanner = NetpbmScanner(bytes: bytes, format: "PGM \(magic)")
        let width = try scanner.number("width", max: 1 << 14)
        let height = try scanner.number("height", max: 1 << 14)
        let maxval = try scanner.number("maxval", max: 65535)
        guard width > 0, height > 0 else { throw .emptyImage(format: scanner.format, width: width, height: height) }
        guard maxval > 0 else { throw .zeroMaxval(format: scanner.format) }
        let count = width * height
        // Refuse sizes the file cannot hold before allocating for them: a plain
        // sample takes at least two bytes (digit, separator), a raw one one or two.
        let needed = magic == "P2" ? 2 * count - 1 : count * (maxval > 255 ? 2 : 1) + 1
        guard bytes.count - scanner.index >= needed else {
            throw .tooFewBytes(format: scanner.format, width: width, height: height, needed: needed, available: bytes.count - scanner.index)
        }
        var samples = [UInt8](repeating: 0, count: count)
        func scaled(_ v: Int) -> UInt8 { UInt8((v * 255 + maxval / 2) / maxval) }
        if magic == "P2" {
            for i in 0..<count {
                scanner.skipSpaceAndComments()
                guard scanner.index < bytes.count else {
                    throw .endsAfter(format: scanner.format, read: i, total: count)
                }
                let v = try scanner.number("sample \(i)", max: 1 << 20)
                guard v <= maxval else {
                    throw .aboveMaxval(format: scanner.format, index: i, x: i % width, y: i / width, value: v, maxval: maxval)
                }
                samples[i] = scaled(v)
            }
        } else {
            try scanner.rasterSeparator()
            let size = maxval > 255 ? 2 : 1
            guard bytes.count - scanner.index >= count * size else {
                throw .rasterTooShort(format: scanner.format, needed: count * size, available: bytes.count - scanner.index)
            }
            for i in 0..<count {
                let at = scanner.index + i * size
                let v = size == 1 ? Int(bytes[at]) : Int(bytes[at]) << 8 | Int(bytes[at + 1])
                guard v <= maxval else { throw .aboveMaxval(format: scanner.format, index: i, x: i % width, y: i / width, value: v, maxval: maxval) }
                samples[i] = scaled(v)
            }
        }
        return AlphaMask(width: width, height: height, alpha: samples)!
    }
}
