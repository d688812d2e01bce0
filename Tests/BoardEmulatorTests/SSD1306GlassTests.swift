import Testing
import TiltDisplay
@testable import BoardEmulator

/// The glass model alone: GDDRAM and registers in, what the panel shows out.
struct SSD1306GlassTests {
    /// GDDRAM with a distinct byte everywhere.
    let ram: [UInt8] = (0..<1024).map { UInt8(truncatingIfNeeded: $0 * 37 + ($0 >> 7) * 11 + 5) }

    func ramPixel(_ x: Int, _ y: Int) -> Bool { ram[(y >> 3) * 128 + x] >> UInt8(y & 7) & 1 != 0 }

    /// The usual module set-up (0xA1, 0xC8, charge pump, display on).
    var usual: SSD1306Registers {
        var r = SSD1306Registers()
        r.displayOn = true
        r.chargePump = true
        r.segmentRemap = true
        r.comReversed = true
        return r
    }

    func expectGlass(_ r: SSD1306Registers, _ comment: Comment, _ pixel: (Int, Int) -> Bool) {
        let glass = SSD1306Glass.screen(gddram: ram, registers: r)
        var wrong = 0
        for y in 0..<64 { for x in 0..<128 where glass[x, y] != pixel(x, y) { wrong += 1 } }
        #expect(wrong == 0, comment)
    }

    @Test func theUsualSetUpShowsGDDRAMAsStored() {
        #expect(SSD1306Glass.screen(gddram: ram, registers: usual).bytes == ram)
        expectGlass(usual, "upright") { ramPixel($0, $1) }
    }

    /// A 128 × 32 module: 32 lines on COM0…COM31. Its own set-up (32 rows,
    /// sequential COM pins) shows GDDRAM rows 0…31 upright; the 128 × 64
    /// set-up shows every other row (the odd ones with 0xC8), squeezed 2:1;
    /// below its 32 lines there is no glass, even with 0xA5.
    @Test func a128x32PanelShowsThirtyTwoRows() {
        var r = usual
        r.panelRows = 32
        r.multiplex = 31
        r.comPins = 0x02
        expectGlass(r, "0xA8 0x1F, 0xDA 0x02: rows 0…31 upright") { x, y in y < 32 && ramPixel(x, y) }
        r.comReversed = false
        expectGlass(r, "0xC0 flips the 32 rows") { x, y in y < 32 && ramPixel(x, 31 - y) }
        var squeezed = usual
        squeezed.panelRows = 32
        expectGlass(squeezed, "the 128 × 64 set-up: every other row") { x, y in y < 32 && ramPixel(x, 2 * y + 1) }
        squeezed.entireOn = true
        expectGlass(squeezed, "0xA5 lights the 32 lines only") { _, y in y < 32 }
    }

    @Test func remapsMirrorAndFlip() {
        var r = usual
        r.segmentRemap = false
        expectGlass(r, "0xA0 mirrors left-right") { ramPixel(127 - $0, $1) }
        r = usual
        r.comReversed = false
        expectGlass(r, "0xC0 flips upside down") { ramPixel($0, 63 - $1) }
    }

    @Test func darkWithoutPowerAndLitEverywhereWithEntireOn() {
        var r = usual
        r.displayOn = false
        expectGlass(r, "0xAE") { _, _ in false }
        r = usual
        r.chargePump = false
        expectGlass(r, "no charge pump, no panel voltage") { _, _ in false }
        r = usual
        r.entireOn = true
        r.inverse = true
        expectGlass(r, "0xA5 lights every pixel") { _, _ in true }
        r = usual
        r.inverse = true
        expectGlass(r, "0xA7") { !ramPixel($0, $1) }
    }

    @Test func startLineAndOffsetShiftRowsUp() {
        var r = usual
        r.startLine = 8
        expectGlass(r, "start line 8") { ramPixel($0, ($1 + 8) % 64) }
        r.offset = 3
        expectGlass(r, "start line 8, offset 3") { ramPixel($0, ($1 + 11) % 64) }
    }

    @Test func multiplexRatioLightsOnlyThatManyRows() {
        var r = usual
        r.multiplex = 31
        expectGlass(r, "32 rows, scanned from COM31 down") { x, y in y >= 32 && ramPixel(x, y - 32) }
        r.comReversed = false
        r.segmentRemap = false
        let lit = (0..<64).filter { y in (0..<128).contains { SSD1306Glass.screen(gddram: [UInt8](repeating: 0xFF, count: 1024), registers: r)[$0, y] } }
        #expect(lit.count == 32)
    }

    @Test func sequentialCOMPinsOnThisPanelInterleaveTheHalves() {
        var r = usual
        r.comPins = 0x02
        // Display row k lands on panel line 2k (first half) or 2(k − 32) + 1; glass y = 63 − line.
        expectGlass(r, "0xDA 0x02 on a panel wired for 0x12") { x, y in
            let line = 63 - y
            let com = line & 1 == 0 ? line / 2 : 32 + line / 2
            return ramPixel(x, 63 - com)
        }
    }

    @Test func verticalScrollAreaMovesByTheOffset() {
        var r = usual
        r.scrollActive = true
        r.verticalScrollTop = 8
        r.verticalScrollRows = 40
        r.verticalScrollOffset = 5
        expectGlass(r, "rows 8..<48 move up by 5 within the area") { x, y in
            let row = (8..<48).contains(y) ? 8 + (y - 8 + 5) % 40 : y
            return ramPixel(x, row)
        }
    }

    @Test func brightnessFollowsContrast() {
        #expect(SSD1306Glass.brightness(contrast: 0) == 64)
        #expect(SSD1306Glass.brightness(contrast: 0xFF) == 255)
        #expect(SSD1306Glass.brightness(contrast: 0x7F) < SSD1306Glass.brightness(contrast: 0xCF))
        var frame = AVRDisplayFrame(vram: ram, registers: usual)
        #expect(frame.brightness == SSD1306Glass.brightness(contrast: 0x7F))
        frame.registers.displayOn = false
        #expect(frame.brightness == 0)
    }
}
