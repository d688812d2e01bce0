@testable import TiltsimCommand
import TiltDisplay
import Testing

/// `tiltsim --screen` fits the terminal: the largest rendering with room for
/// the status line, nothing wider than the terminal, the rest cleared.
@Suite struct ScreenFrameTests {
    @Test func theLargestRenderingThatFitsIsDrawn() {
        #expect(ScreenFrame.density(columns: 80, rows: 24) == .braille, "half blocks wrapped every row at 80 columns")
        #expect(ScreenFrame.density(columns: 128, rows: 33) == .halfBlocks)
        #expect(ScreenFrame.density(columns: 128, rows: 32) == .braille, "no row left for the status line under 32")
        #expect(ScreenFrame.density(columns: 127, rows: 60) == .quadrants)
        #expect(ScreenFrame.density(columns: 64, rows: 17) == .braille)
        #expect(ScreenFrame.density(columns: 63, rows: 17) == nil)
        #expect(ScreenFrame.density(columns: 64, rows: 16) == nil)
    }

    @Test(arguments: [(80, 24), (140, 45), (40, 10), (20, 5), (1, 1)])
    func noLineIsWiderThanTheTerminalAndTheRestIsCleared(columns: Int, rows: Int) throws {
        let screen = try #require(Screen(bytes: (0..<Screen.byteCount).map { $0 % 3 == 0 ? 0xFF : 0x00 }))
        let status = "avr  12.3 s simulated  1234 sensor samples  56789 bytes out  contrast 0xCF (grey 219)"
        let text = ScreenFrame.text(screen, status: status, columns: columns, rows: rows, grey: 219)
        #expect(text.hasPrefix("\u{1B}[H") && text.hasSuffix("\u{1B}[J"), "from the top, the rest of the screen cleared")
        let lines = text.dropFirst(3).dropLast(3).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= rows)
        for line in lines {
            let visible = line.replacing(/\x1B\[[0-9;]*[A-Za-z]/, with: "")
            #expect(visible.count <= columns, "\(visible.count) > \(columns): \(visible)")
        }
        #expect(lines.last.map { $0.hasPrefix("avr ") || columns < 4 } == true, "the status line last")
    }
}
