/// What the board's 128 × 64 one-bit OLED shows, in SSD1306 page layout:
/// 8 pages × 128 columns, byte `[page × 128 + column]`, least significant bit
/// = top row. (Named `Screen`, not `Frame`: a frame is a message on the wire,
/// WireProtocol's `Frame`; see docs/architecture.md, "One name per concept".)
///
/// This is also the layout of an SSD1306's display RAM (and of simavr's
/// `ssd1306_virt` `vram[8][128]`), so a board's screen compares byte for byte.
/// Its storage is allocated once; `ScreenRenderer` overwrites it in place.
public struct Screen: Hashable, Sendable {
    /// Columns, pixels (the SSD1306's 128 segments).
    public static let width = 128
    /// Rows, pixels (the SSD1306's 64 commons).
    public static let height = 64
    /// Pages of 8 rows each (the datasheet's PAGE0–PAGE7).
    public static let pageCount = 8
    /// Bytes of display RAM (GDDRAM): 8 pages × 128 columns.
    public static let byteCount = 1024

    /// `byteCount` bytes in page layout (always exactly 1024; set through `init(bytes:)`).
    public internal(set) var bytes: [UInt8]

    /// An all-dark screen.
    public init() { bytes = [UInt8](repeating: 0, count: Self.byteCount) }

    /// Nil unless `bytes` holds exactly 1024 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The pixel at column x (0..<128), row y (0..<64); false outside the screen.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < Self.width, y < Self.height else { return false }
        return bytes[(y >> 3) * Self.width + x] >> UInt8(y & 7) & 1 != 0
    }
}
