/// SSD1306 page layout: byte `[page × width + x]` holds rows `page × 8 ... page × 8 + 7`
/// of column x, least significant bit = top row (docs/display.md).
public enum PageLayout {
    /// Packs a row-major predicate image into pages; rows past `height` (padding
    /// up to a whole page) are zero.
    public static func pack(width: Int, height: Int, isSet: (Int, Int) -> Bool) -> [UInt8] {
        let pages = (height + 7) / 8
        var bytes = [UInt8](repeating: 0, count: pages * width)
        for y in 0..<height {
            for x in 0..<width where isSet(x, y) {
                bytes[(y >> 3) * width + x] |= 1 << UInt8(y & 7)
            }
        }
        return bytes
    }
}
