/// The SSD1306's registers that decide what the glass shows, as the part
/// model (CBoardParts/cbp_ssd1306.c) holds them. Reset values by default
/// (datasheet rev 1.1: display off, page addressing, contrast 0x7F, 64 rows,
/// COM pins 0x12, charge pump off).
public struct SSD1306Registers: Sendable, Hashable {
    /// 0xAF (on) / 0xAE (sleep).
    public var displayOn = false
    /// 0x8D 0x14: the module's charge pump makes the panel voltage; off, the glass stays dark.
    public var chargePump = false
    /// 0xA7: a 0 bit lights the pixel.
    public var inverse = false
    /// 0xA5: every pixel lit whatever GDDRAM holds.
    public var entireOn = false
    /// 0xA1: column 127 drives SEG0 (the usual module orientation with 0xC8).
    public var segmentRemap = false
    /// 0xC8: COM scan from COM[N-1] to COM0.
    public var comReversed = false
    /// 0x40...0x7F: the GDDRAM row shown on the first display row.
    public var startLine: UInt8 = 0
    /// 0xD3: vertical shift of the display rows over the COM lines.
    public var offset: UInt8 = 0
    /// 0xA8: rows driven − 1 (15...63).
    public var multiplex: UInt8 = 63
    /// 0xDA: bit 4 alternative COM pin configuration (what 128 × 64 panels are wired for), bit 5 left/right remap.
    public var comPins: UInt8 = 0x12
    /// 0x81: the segment drive current, 0...255 (reset 0x7F); sets how bright the glass shows a lit pixel.
    public var contrast: UInt8 = 0x7F
    /// 0x20: 0 horizontal, 1 vertical, 2 page addressing.
    public var addressingMode: UInt8 = 2
    /// Continuous scrolling (0x2F) and how far it has gone.
    public var scrollActive = false
    /// 0xA3: rows fixed at the top, rows that scroll vertically.
    public var verticalScrollTop: UInt8 = 0
    /// 0xA3's second byte: rows in the vertical scroll area (64: the whole panel).
    public var verticalScrollRows: UInt8 = 64
    /// Rows the diagonal scroll has moved the vertical scroll area up by.
    public var verticalScrollOffset: UInt8 = 0
    /// Scroll steps since 0x2F.
    public var scrollSteps: UInt32 = 0
    /// One display frame in CPU cycles (from 0xD5, 0xD9, 0xA8; see docs/emulator.md).
    public var frameCycles: UInt64 = 0
    /// Lines the module's panel has: 64, or 32 on a 128x32 module (wired to
    /// COM0...COM31; `SSD1306Glass`). Not a register: the module's make.
    public var panelRows = 64

    /// The datasheet's reset values: page addressing, display off, contrast 0x7F, no scroll.
    public init() {}

    /// Rows the panel lights (the multiplex ratio).
    public var rows: Int { Int(multiplex) + 1 }

    /// Whether the panel is lit at all.
    public var isLit: Bool { displayOn && chargePump }
}
