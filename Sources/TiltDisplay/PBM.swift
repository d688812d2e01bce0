/// Portable bitmap (PBM) reader: plain `P1` and raw `P4`. A `1` bit is a lit pixel.
public enum PBM {
    /// Parses a whole PBM file.
    public static func parse(_ bytes: [UInt8]) throws(NetpbmError) -> Bitmap {
        let magic = NetpbmScanner.magic(of: bytes)
        guard magic == "P1" || magic == "P4" else {
            throw NetpbmError("PBM: expected magic number P1 or P4 at the start, found \(NetpbmScanner.describeMagic(of: bytes))")
        }
        var scanner = NetpbmScanner(bytes: bytes, format: "PBM \(magic)")
        let width = try scanner.number("width", max: 1 << 14)
        let height = try scanner.number("height", max: 1 << 14)
        guard width > 0, height > 0 else { throw NetpbmError("PBM \(magic): width and height must be positive, got \(width)x\(height)") }
        // Each plain pixel takes at least one byte: refuse sizes the file cannot hold
        // before allocating for them (raw sizes are checked exactly below).
        guard magic == "P4" || bytes.count - scanner.index >= width * height else {
            throw NetpbmError("PBM P1: \(width)x\(height) needs \(width * height) pixels, the file has only \(bytes.count - scanner.index) bytes left")
        }
        guard magic == "P1" || bytes.count - scanner.index > (width + 7) / 8 * height else {
            throw NetpbmError("PBM P4: raster needs \((width + 7) / 8 * height) bytes, file has \(max(bytes.count - scanner.index - 1, 0))")
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        if magic == "P1" {
            for i in 0..<pixels.count {
                scanner.skipSpaceAndComments()
                guard scanner.index < bytes.count else {
                    throw NetpbmError("PBM P1: file ends after \(i) of \(width * height) pixels")
                }
                switch bytes[scanner.index] {
                case UInt8(ascii: "0"): pixels[i] = 0
                case UInt8(ascii: "1"): pixels[i] = 1
                case let b: throw NetpbmError("PBM P1: pixel \(i) (x \(i % width), y \(i / width)) is \(NetpbmScanner.describe(b)); only 0 and 1 are allowed")
                }
                scanner.index += 1
            }
        } else {
            try scanner.rasterSeparator()
            let rowBytes = (width + 7) / 8
            guard bytes.count - scanner.index >= rowBytes * height else {
                throw NetpbmError("PBM P4: raster needs \(rowBytes * height) bytes, file has \(bytes.count - scanner.index)")
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
