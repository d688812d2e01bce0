/// One 128 × 64 one-bit display frame in SSD1306 page layout: 8 pages × 128
/// columns, byte `[page × 128 + column]`, least significant bit = top row.
///
/// This is also the layout of an SSD1306's display RAM (and of simavr's
/// `ssd1306_virt` `vram[8][128]`), so a board's screen compares byte for byte.
/// Its storage is allocated once; `FrameRenderer` overwrites it in place.
public struct Frame: Hashable, Sendable {
    public static let width = 128
    public static let height = 64
    public static let pageCount = 8
    public static let byteCount = 1024

    /// `byteCount` bytes in page layout (always exactly 1024; set through `init(bytes:)`).
    public internal(set) var bytes: [UInt8]

    /// An all-dark frame.
    public init() { bytes = [UInt8](repeating: 0, count: Self.byteCount) }

    /// Nil unless `bytes` holds exactly 1024 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The pixel at column x (0..<128), row y (0..<64); false outside the frame.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < Self.width, y < Self.height else { return false }
        return bytes[(y >> 3) * Self.width + x] >> UInt8(y & 7) & 1 != 0
    }
}
