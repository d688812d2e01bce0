import Testing
import TiltDisplay

/// The live view's board renderings: every pixel lands in the right cell and
/// dot, at each density, checked against `Screen`'s own pixel reader.
@Suite struct TerminalCellsTests {
    /// A screen with a scattered pattern (every pixel position mod the cell sizes is covered).
    static func pattern() -> Screen {
        var bytes = [UInt8](repeating: 0, count: Screen.byteCount)
        var state: UInt32 = 12345
        for i in bytes.indices {
            state = state &* 1_103_515_245 &+ 12345
            bytes[i] = UInt8(truncatingIfNeeded: state >> 16)
        }
        return Screen(bytes: bytes)!
    }

    /// Reads pixels back out of a rendering, from the glyph tables written out here independently.
    static func decode(_ lines: [String], _ density: CellDensity) -> [[Bool]] {
        var pixels = Array(repeating: Array(repeating: false, count: Screen.width), count: Screen.height)
        let (cw, ch) = density.cellPixels
        for (row, line) in lines.enumerated() {
            for (column, scalar) in line.unicodeScalars.enumerated() {
                let x = column * cw, y = row * ch
                switch density {
                case .braille:
                    let bits = scalar == " " ? 0 : Int(scalar.value) - 0x2800
                    let dots = [(0, 0, 0), (0, 1, 1), (0, 2, 2), (1, 0, 3), (1, 1, 4), (1, 2, 5), (0, 3, 6), (1, 3, 7)]
                    for (dx, dy, bit) in dots { pixels[y + dy][x + dx] = bits & (1 << bit) != 0 }
                case .quadrants:
                    let table: [Character: (Bool, Bool, Bool, Bool)] = [
                        " ": (false, false, false, false), "▘": (true, false, false, false), "▝": (false, true, false, false),
                        "▀": (true, true, false, false), "▖": (false, false, true, false), "▌": (true, false, true, false),
                        "▞": (false, true, true, false), "▛": (true, true, true, false), "▗": (false, false, false, true),
                        "▚": (true, false, false, true), "▐": (false, true, false, true), "▜": (true, true, false, true),
                        "▄": (false, false, true, true), "▙": (true, false, true, true), "▟": (false, true, true, true),
                        "█": (true, true, true, true),
                    ]
                    let q = table[Character(scalar)]!
                    (pixels[y][x], pixels[y][x + 1], pixels[y + 1][x], pixels[y + 1][x + 1]) = q
                case .halfBlocks:
                    pixels[y][x] = scalar == "▀" || scalar == "█"
                    pixels[y + 1][x] = scalar == "▄" || scalar == "█"
                }
            }
        }
        return pixels
    }

    @Test(arguments: CellDensity.allCases)
    func everyPixelShowsInItsCell(density: CellDensity) {
        let screen = Self.pattern()
        let lines = density.lines(screen)
        #expect(lines.count == density.rows)
        #expect(lines.allSatisfy { $0.unicodeScalars.count == density.columns })
        let pixels = Self.decode(lines, density)
        var wrong = 0
        for y in 0..<Screen.height { for x in 0..<Screen.width where pixels[y][x] != screen[x, y] { wrong += 1 } }
        #expect(wrong == 0, "\(wrong) pixels differ")
    }

    @Test func theSizesTheLayoutCountsOn() {
        #expect((CellDensity.braille.columns, CellDensity.braille.rows) == (64, 16))
        #expect((CellDensity.quadrants.columns, CellDensity.quadrants.rows) == (64, 32))
        #expect((CellDensity.halfBlocks.columns, CellDensity.halfBlocks.rows) == (128, 32))
    }

    @Test func aDarkScreenIsSpacesAndOnePixelIsOneDot() {
        var bytes = [UInt8](repeating: 0, count: Screen.byteCount)
        #expect(CellDensity.braille.lines(Screen()).allSatisfy { $0.allSatisfy { $0 == " " } })
        bytes[7 * 128 + 127] = 0x80  // bottom-right pixel: dot 8 of the last cell
        let lines = BrailleCells.lines(Screen(bytes: bytes)!)
        #expect(lines[15].unicodeScalars.last == "\u{2880}")
        #expect(QuadrantBlocks.lines(Screen(bytes: bytes)!)[31].hasSuffix("▗"))
    }
}

@Suite struct SparklineTests {
    @Test func lowestToHighestEighths() {
        #expect(Sparkline.text([0, 1, 2, 3, 4, 5, 6, 7, 8], low: 0, high: 8) == "▁▂▃▄▅▆▇██")
        #expect(Sparkline.text([-5, 20, .nan], low: 0, high: 8) == "▁█ ", "clamped; NaN is a gap")
        #expect(Sparkline.text([Double](), low: 0, high: 1) == "")
    }

    @Test func stillDataStaysFlatNotFullHeight() {
        let noise = [60.01, 59.99, 60.02, 60.0]
        let range = Sparkline.range(noise, minimumSpan: 10)
        #expect(range.low == 55.005 && range.high == 65.005)
        let levels = Sparkline.text(noise, low: range.low, high: range.high).unicodeScalars.map { $0.value }
        #expect(levels.max()! - levels.min()! <= 1, "noise moves it one eighth at most")
        let moving = [0.0, 90]
        #expect(Sparkline.range(moving, minimumSpan: 10) == (0, 90))
        #expect(Sparkline.range([Double](), minimumSpan: 2) == (-1, 1))
    }

    @Test func meterBarsInEighths() {
        #expect(MeterBar.text(0, full: 75, width: 4) == "    ")
        #expect(MeterBar.text(75, full: 75, width: 4) == "████")
        #expect(MeterBar.text(200, full: 75, width: 4) == "████")
        #expect(MeterBar.text(75.0 / 32 * 5, full: 75, width: 4) == "▋   ", "5 eighths of the first cell")
        #expect(MeterBar.text(.nan, full: 75, width: 2) == "  ")
    }
}
