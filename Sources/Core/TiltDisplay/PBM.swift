/// Portable bitmap (PBM) reader: plain `P1` and raw `P4`. A `1` bit is a lit pixel.
public enum PBM {
    /// Parses a whole PBM file.
    public static func parse(_ bytes: [UInt8]) throws(NetpbmError) -> Bitmap {
        let magic = NetpbmScanner.magic(of: bytes)
        guard magic == "P1" || magic == "P4" else {
            throw .wrongMagic(expected: "PBM", found: NetpbmScanner.head(of: bytes))
        }
        var scanner = NetpbmScanner(bytes: bytes, format: "PBM \(magic)")
        let width = try scanner.number("width", max: 1 << 14)
        let height = try scanner.number("height", max: 1 << 14)
        guard width > 0, height > 0 else { throw .emptyImage(format: scanner.format, width: width, height: height) }
        // Each plain pixel takes at least one byte: refuse sizes the file cannot hold
        // before allocating for them (raw sizes are checked exactly below).
        guard magic == "P4" || bytes.count - scanner.index >= width * height else {
            throw .tooFewBytes(format: scanner.format, width: width, height: height, needed: width * height, available: bytes.count - scanner.index)
        }
        guard magic == "P1" || bytes.count - scanner.index > (width + 7) / 8 * height else {
            throw .rasterTooShort(format: scanner.format, needed: (width + 7) / 8 * height, available: max(bytes.count - scanner.index - 1, 0))
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        if magic == "P1" {
            for i in 0..<pixels.count {
                scanner.skipSpaceAndComments()
                guard scanner.index < bytes.count else {
                    throw .endsAfter(format: scanner.format, read: i, total: width * height)
                }
                switch bytes[scanner.index] {
                case UInt8(ascii: "0"): pixels[i] = 0
                case UInt8(ascii: "1"): pixels[i] = 1
                case let b: throw .badPixel(index: i, x: i % width, y: i / width, found: b)
                }
                scanner.index += 1
            }
        } else {
            try scanner.rasterSeparator()
            let rowBytes = (width + 7) / 8
            guard bytes.count - scanner.index >= rowBytes * height else {
                throw .rasterTooShort(format: scanner.format, needed: rowBytes * height, available: bytes.count - scanner.index)
            }
            for y in 0..<height {
                for x in 0..<width {
                    let byte = bytes[scanner.index + y * rowBytes + x / 8]
                    pixels[y * width + x] = (byte >> (7 - UInt8(x % 8))) & 1
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }
}
