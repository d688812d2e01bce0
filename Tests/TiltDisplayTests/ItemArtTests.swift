import Testing
import TiltDisplay

@Suite struct ItemArtTests {
    static func icon(_ lit: [(Int, Int)]) -> Bitmap {
        var b = Bitmap(width: 16, height: 16)!
        for (x, y) in lit { b[x, y] = true }
        return b
    }

    @Test func drawnIsTheIconWithAOnePixelHaloAllRound() throws {
        let art = try ItemArt(names: ["dot"], icons: [Self.icon([(5, 9)])])
        func bit(_ pages: [UInt8], _ x: Int, _ y: Int) -> Bool { pages[(y >> 3) * 16 + x] >> UInt8(y & 7) & 1 == 1 }
        for y in 0..<16 {
            for x in 0..<16 {
                #expect(bit(art.litPages, x, y) == (x == 5 && y == 9))
                #expect(bit(art.drawnPages, x, y) == (abs(x - 5) <= 1 && abs(y - 9) <= 1), "(\(x), \(y))")
            }
        }
    }

    @Test func iconsOfTheWrongSizeOrTouchingTheirBorderAreRefused() {
        #expect(throws: ArtError.itemSize(name: "big", width: 17, height: 16)) { try ItemArt(names: ["big"], icons: [Bitmap(width: 17, height: 16)!]) }
        for edge in [(0, 5), (15, 5), (5, 0), (5, 15)] {
            #expect(throws: ArtError.itemBorder(name: "edge")) { try ItemArt(names: ["edge"], icons: [Self.icon([edge])]) }
        }
        #expect(throws: ArtError.itemNames(names: 2, icons: 2)) { try ItemArt(names: ["a", "a"], icons: [Self.icon([]), Self.icon([])]) }
        #expect(throws: ArtError.itemNames(names: 1, icons: 0)) { try ItemArt(names: ["a"], icons: []) }
        #expect(ArtError.itemBorder(name: "edge").description
            == "drawer item 'edge' has lit pixels on its border; keep the outer pixel ring empty for the halo")
    }
}
