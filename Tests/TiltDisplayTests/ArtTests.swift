import TiltAssets
import Testing
import TiltCore
import TiltDisplay

@Suite struct ContentTileTests {
    @Test func pageLayoutIsLeastSignificantBitTopRow() throws {
        // 8 x 16: pixel (x, y) lit when y == x or y == 15 - x.
        var bitmap = Bitmap(width: 8, height: 16)!
        for x in 0..<8 { bitmap[x, x] = true; bitmap[x, 15 - x] = true }
        let tile = try ContentTile(bitmap: bitmap)
        #expect(tile.pageCount == 2)
        // Page 0 column x has bit x set; page 1 column x holds row 15 - x = bit (7 - x).
        #expect(tile.pageBytes == (0..<8).map { UInt8(1) << UInt8($0) } + (0..<8).map { UInt8(0x80) >> UInt8($0) })
        #expect(tile.id == CRC16.checksum(tile.pageBytes))
        #expect(tile.contentPixel(x: 8 + 3, y: 16 + 3) && tile.contentPixel(x: -5, y: 15 - 3))
    }

    @Test(arguments: [(12, 8), (8, 12), (264, 8), (8, 136)])
    func sizesOutsideTheSpecAreRejected(width: Int, height: Int) {
        #expect(throws: ArtError.tileSize(width: width, height: height)) { try ContentTile(bitmap: Bitmap(width: width, height: height)!) }
        #expect(ArtError.tileSize(width: width, height: height).description
            == "content tile is \(width)x\(height); width and height must be multiples of 8, at most 256x128")
    }

    @Test func ribbonAlphaClassesFollowTheSpecThresholds() throws {
        let alphas: [UInt8] = [0, 85, 86, 170, 171, 255]
        let art = try RibbonArt(mask: AlphaMask(width: 1, height: 6, alpha: alphas)!)
        #expect(art.drawnPages == [0b111100])
        #expect(art.litPages == [0b110000])
    }

    @Test func ribbonPagesArePaddedWithZeroRows() throws {
        let art = try RibbonArt(mask: AlphaMask(width: 2, height: 9, alpha: [UInt8](repeating: 255, count: 18))!)
        #expect(art.pageCount == 2)
        #expect(art.litPages == [0xFF, 0xFF, 0x01, 0x01])
    }

    /// The item names known without parsing (start-up, the pins file) are the parsed art's, in order.
    @Test func itemNamesWithoutParsingAreTheParsedOnes() throws {
        let art = try TiltAssets.load()
        #expect(TiltAssets.itemNames == art.items.names)
        #expect(TiltAssets.itemNames.count >= 8)
    }
}
