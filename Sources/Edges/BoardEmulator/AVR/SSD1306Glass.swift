import TiltDisplay

/// What a 128 × 64 SSD1306 module's glass shows, from GDDRAM and the
/// registers: pure, so it is tested pixel by pixel without a simulator.
///
/// Orientation: the module as usually mounted (header pins at the top), where
/// 0xA1 + 0xC8 (what our firmware, Adafruit_SSD1306 and U8g2 send) shows
/// GDDRAM upright: glass (x, y) is column x, row y of page y / 8. Without
/// 0xA1 the picture is mirrored left–right, without 0xC8 upside down.
///
/// The path of a glass row back to GDDRAM, after the datasheet (10.1.12–10.1.18):
/// panel line → COM pad (128 × 64 panels are wired for the alternative COM
/// pin configuration, 0xDA 0x12) → the chip's COM index for the configured
/// 0xDA → display row (scan direction 0xC0/0xC8 over the multiplex ratio N,
/// display offset 0xD3; rows ≥ N stay dark) → vertical scroll area (0xA3)
/// moved by the diagonal scroll → GDDRAM row (+ start line 0x40…0x7F).
/// Columns: SEG = 127 − x; 0xA1 maps column 127 to SEG0.
///
/// A 128 × 32 module (`panelRows` 32) has 32 lines wired in order to COM0…COM31
/// (what its usual set-up, 0xA8 0x1F with sequential COM pins 0xDA 0x02, shows
/// upright with 0xC8): glass rows 0…31 of the `Screen`, rows 32…63 stay dark.
/// Driven with the 128 × 64 set-up (64 rows, alternative COM pins) those 32
/// lines show every other display row: the picture squeezed 2:1.
public enum SSD1306Glass {
    /// Gray level of a lit pixel for a contrast setting: segment current is
    /// proportional to contrast + 1 (datasheet 10.1.7), and a panel at the
    /// lowest setting is dim but visible, so 0x00 → 64 and 0xFF → 255.
    public static func brightness(contrast: UInt8) -> UInt8 {
        UInt8(64 + (Int(contrast) * 191 + 127) / 255)
    }

    /// The glass for `gddram` (1024 bytes, page-major) under `registers`.
    public static func screen(gddram: [UInt8], registers r: SSD1306Registers) -> Screen {
        guard r.isLit, gddram.count == Screen.byteCount else { return Screen() }
        if r.showsRAMAsStored { return Screen(bytes: gddram)! }
        var bytes = [UInt8](repeating: 0, count: Screen.byteCount)
        for y in 0..<min(Screen.height, r.panelRows) {  // no panel below a 128 × 32 module's 32 lines
            let ramRow = gddramRow(glassRow: y, registers: r)
            for x in 0..<Screen.width {
                var lit: Bool
                if r.entireOn {
                    lit = true
                } else if let row = ramRow {
                    let column = r.segmentRemap ? x : 127 - x
                    lit = gddram[(row >> 3) * 128 + column] >> UInt8(row & 7) & 1 != 0
                    if r.inverse { lit.toggle() }
                } else {
                    lit = false  // a COM line the multiplex ratio leaves undriven
                }
                if lit { bytes[(y >> 3) * 128 + x] |= 1 << UInt8(y & 7) }
            }
        }
        return Screen(bytes: bytes)!
    }

    /// The GDDRAM row glass row `y` shows, or nil when no display row drives it.
    public static func gddramRow(glassRow y: Int, registers r: SSD1306Registers) -> Int? {
        let pad: Int
        if r.panelRows == 32 {
            // A 128 × 32 panel: its lines on COM0…COM31 in order, the last glass row on COM0.
            guard y < 32 else { return nil }
            pad = 31 - y
        } else {
            // Panel line → COM pad, as 128 × 64 panels are wired (alternative configuration).
            let line = 63 - y
            pad = line & 1 == 0 ? line / 2 : 32 + line / 2
        }
        // COM pad → the chip's COM index under the configured pin layout.
        let alternative = r.comPins & 0x10 != 0, leftRight = r.comPins & 0x20 != 0
        let com: Int = switch (alternative, leftRight) {
        case (true, false): pad < 32 ? 2 * pad : 2 * (pad - 32) + 1
        case (true, true): pad >= 32 ? 2 * (pad - 32) : 2 * pad + 1
        case (false, false): pad
        case (false, true): (pad + 32) % 64
        }
        // COM index → display row: scan direction over N rows, then the offset.
        let n = r.rows
        let scanned = r.comReversed ? (n - 1 - com + 64) % 64 : com
        let displayRow = (scanned + Int(r.offset)) % 64
        guard displayRow < n else { return nil }
        // Vertical scroll area, then the start line.
        var row = displayRow
        let top = Int(r.verticalScrollTop), count = Int(r.verticalScrollRows)
        if r.scrollActive, count > 0, row >= top, row < top + count {
            row = top + (row - top + Int(r.verticalScrollOffset)) % count
        }
        return (row + Int(r.startLine)) % 64
    }
}

extension SSD1306Registers {
    /// The usual module set-up, in which the glass shows GDDRAM byte for byte
    /// (0xA1, 0xC8, 64 rows, no offset or start line, alternative COM pins,
    /// not inverted, not all on, no vertical scroll).
    var showsRAMAsStored: Bool { panelRows == 64 && usualSetUp }

    /// The same set-up on a 128 × 32 module: its 32 lines show every other
    /// GDDRAM row as stored (docs/display.md, "The 128×32 module").
    var showsRAMSqueezed: Bool { panelRows == 32 && usualSetUp }

    private var usualSetUp: Bool {
        segmentRemap && comReversed && multiplex == 63 && offset == 0 && startLine == 0
            && comPins == 0x12 && !inverse && !entireOn && (!scrollActive || verticalScrollOffset == 0)
    }
}
