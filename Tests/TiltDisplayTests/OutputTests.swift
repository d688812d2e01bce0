import Testing
import TiltCore
import TiltDisplay
import TiltAssets

@Suite struct HalfBlocksTests {
    @Test func twoRowsPerCharacter() {
        var bytes = [UInt8](repeating: 0, count: 1024)
        bytes[0] = 0b01  // col 0: row 0 lit
        bytes[1] = 0b10  // col 1: row 1 lit
        bytes[2] = 0b11  // col 2: both
        bytes[7 * 128 + 127] = 0x80  // bottom-right pixel
        let lines = HalfBlocks.lines(Screen(bytes: bytes)!)
        #expect(lines.count == 32)
        #expect(lines.allSatisfy { $0.unicodeScalars.count == 128 })
        #expect(lines[0].hasPrefix("▀▄█ "))
        #expect(lines[31].hasSuffix(" ▄"))
        #expect(lines[1...30].allSatisfy { $0.allSatisfy { $0 == " " } })
    }
}

@Suite struct PNGTests {
    /// Reads a PNG back with an independent CRC-32 and a stored-block inflater.
    func decode(_ png: [UInt8]) throws -> (width: Int, height: Int, gray: [UInt8]) {
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be32(_ at: Int) -> Int { Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3]) }
        var at = 8, types: [String] = [], idat: [UInt8] = [], width = 0, height = 0
        while at < png.count {
            let length = be32(at)
            let typed = Array(png[(at + 4)..<(at + 8 + length)])
            types.append(String(decoding: typed.prefix(4), as: UTF8.self))
            #expect(UInt32(be32(at + 8 + length)) == crc32(typed), "chunk \(types.last!) CRC")
            let body = Array(typed.dropFirst(4))
            if types.last == "IHDR" {
                width = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
                height = Int(body[4]) << 24 | Int(body[5]) << 16 | Int(body[6]) << 8 | Int(body[7])
                #expect(Array(body[8...]) == [8, 0, 0, 0, 0])
            }
            if types.last == "IDAT" { idat += body }
            at += 12 + length
        }
        #expect(types == ["IHDR", "IDAT", "IEND"])
        // zlib header, stored blocks, Adler-32.
        #expect((Int(idat[0]) << 8 | Int(idat[1])) % 31 == 0 && idat[0] & 0x0F == 8)
        var raw: [UInt8] = [], i = 2, final = false
        while !final {
            final = idat[i] & 1 == 1
            #expect(idat[i] & 0b110 == 0, "stored block")
            let len = Int(idat[i + 1]) | Int(idat[i + 2]) << 8
            let nlen = Int(idat[i + 3]) | Int(idat[i + 4]) << 8
            #expect(len ^ nlen == 0xFFFF)
            raw += idat[(i + 5)..<(i + 5 + len)]
            i += 5 + len
        }
        var a = 1, b = 0
        for byte in raw { a = (a + Int(byte)) % 65521; b = (b + a) % 65521 }
        #expect(Array(idat[i..<(i + 4)]) == [UInt8(b >> 8), UInt8(b & 0xFF), UInt8(a >> 8), UInt8(a & 0xFF)])
        var gray: [UInt8] = []
        for y in 0..<height {
            #expect(raw[y * (width + 1)] == 0, "filter byte")
            gray += raw[(y * (width + 1) + 1)..<((y + 1) * (width + 1))]
        }
        return (width, height, gray)
    }

    func crc32(_ bytes: [UInt8]) -> UInt32 {
        let table: [UInt32] = (0..<256).map { n in
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            return c
        }
        return ~bytes.reduce(UInt32.max) { table[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }

    @Test func crcOfIENDIsTheWellKnownValue() { #expect(crc32(Array("IEND".utf8)) == 0xAE42_6082) }

    @Test(arguments: [1, 3])
    func screenRoundTripsThroughThePNG(scale: Int) throws {
        var rng = SplitMix64(seed: UInt64(scale))
        let screen = Screen(bytes: (0..<1024).map { _ in UInt8.random(in: 0...255, using: &rng) })!
        let image = try decode(PNGEncoder.encode(screen, scale: scale))
        #expect(image.width == 128 * scale && image.height == 64 * scale)
        let expected = (0..<(64 * scale)).flatMap { y in (0..<(128 * scale)).map { x in screen[x / scale, y / scale] ? UInt8(255) : 0 } }
        #expect(image.gray == expected)
    }

    @Test func largeImagesSpanSeveralStoredBlocks() throws {
        let gray = (0..<(300 * 300)).map { UInt8($0 % 251) }
        let image = try decode(PNGEncoder.encodeGray(width: 300, height: 300, pixels: gray)!)
        #expect(image.gray == gray)
        #expect(PNGEncoder.encodeGray(width: 2, height: 2, pixels: [1]) == nil)
    }
}

@Suite struct ShippedAssetsTests {
    @Test func assetsLoadWithTheDocumentedSizes() throws {
        let art = try TiltAssets.load()
        #expect(art.tile.width == 256 && art.tile.height == 128)
        #expect(art.ribbon.width == 12 && art.ribbon.height == 36)
        // The notch: the bottom row's middle is transparent, the top row's body lit.
        #expect(art.ribbon.mask[6, 35] <= 85 && art.ribbon.mask[6, 0] > 170)
        #expect(art.tile.geometry.contentWidth == 512 && art.tile.geometry.contentHeight == 256)
    }
}
