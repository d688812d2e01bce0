/// A minimal PNG writer: 8-bit grayscale or RGBA, no filtering, zlib stream of stored
/// (uncompressed) deflate blocks. Enough for snapshots of 128 × 64 screens.
public enum PNGEncoder {
    /// A screen as PNG bytes, each pixel drawn as a `scale` × `scale` square
    /// (lit = gray level `lit`, white by default; dark = black). Scale is clamped to 1...16.
    public static func encode(_ screen: Screen, scale: Int = 1, lit: UInt8 = 0xFF) -> [UInt8] {
        let s = min(max(scale, 1), 16)
        let width = Screen.width * s, height = Screen.height * s
        var gray = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width where screen[x / s, y / s] { gray[y * width + x] = lit }
        }
        return encodeGray(width: width, height: height, pixels: gray)!
    }

    /// An 8-bit grayscale image (row-major) as PNG bytes; nil unless `pixels`
    /// holds `width × height` values and both are positive.
    public static func encodeGray(width: Int, height: Int, pixels: [UInt8]) -> [UInt8]? {
        encode(width: width, height: height, channels: 1, pixels: pixels)
    }

    /// A screen as Wokwi's SSD1306 part gives it: 128 × 64 RGBA, lit pixels
    /// (255, 255, 255, 255) on (0, 0, 0, 255), whatever the contrast.
    public static func encodeRGBA(_ screen: Screen) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: Screen.width * Screen.height * 4)
        for y in 0..<Screen.height {
            for x in 0..<Screen.width {
                let i = (y * Screen.width + x) * 4
                let level: UInt8 = screen[x, y] ? 0xFF : 0
                pixels[i] = level
                pixels[i + 1] = level
                pixels[i + 2] = level
                pixels[i + 3] = 0xFF
            }
        }
        return encode(width: Screen.width, height: Screen.height, channels: 4, pixels: pixels)!
    }

    /// 8-bit grey (1 channel) or RGBA (4), row-major.
    static func encode(width: Int, height: Int, channels: Int, pixels: [UInt8]) -> [UInt8]? {
        guard width > 0, height > 0, channels == 1 || channels == 4, pixels.count == width * height * channels else { return nil }
        let rowBytes = width * channels
        var raw = [UInt8]()
        raw.reserveCapacity((rowBytes + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter type None
            raw.append(contentsOf: pixels[(y * rowBytes)..<((y + 1) * rowBytes)])
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = [UInt8]()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, channels == 4 ? 6 : 0, 0, 0, 0]  // bit depth 8, grayscale or RGBA, deflate, adaptive filters, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", zlibStored(raw), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// A zlib stream holding `data` in stored deflate blocks of at most 65535 bytes.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, no dictionary; (0x7801 % 31 == 0)
        var start = 0
        repeat {
            let end = min(start + 65535, data.count)
            let length = UInt16(end - start)
            out.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += data[start..<end]
            start = end
        } while start < data.count
        out.appendBigEndian(adler32(data))
        return out
    }

    static func appendChunk(_ type: String, _ body: [UInt8], to png: inout [UInt8]) {
        png.appendBigEndian(UInt32(body.count))
        let typed = Array(type.utf8) + body
        png += typed
        png.appendBigEndian(crc32(typed))
    }

    /// CRC-32 (ISO-HDLC, reflected polynomial 0xEDB88320) as PNG chunks use it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
