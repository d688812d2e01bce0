import Testing
@testable import TiltsimCommand

/// `tiltsim wokwi`'s status lines between the sketch's serial lines, pure.
@Suite struct StatusBetweenLinesTests {
    @Test func aStatusLineAfterHalfALineTakesTheNewlineThatEndsIt() {
        var lines = StatusBetweenLines()
        #expect(Array(lines.serial(Array("armed".utf8))) == Array("armed".utf8))
        #expect(lines.status("[s] 0.1 s: serial matched \"armed\"") == "\n[s] 0.1 s: serial matched \"armed\"")
        #expect(Array(lines.serial(Array("\r\nax=0\r\n".utf8))) == Array("ax=0\r\n".utf8))
        // At a line's start it is printed as it is, and nothing is dropped after it.
        #expect(lines.status("[s] 0.2 s: done") == "[s] 0.2 s: done")
        #expect(Array(lines.serial(Array("\r\n".utf8))) == Array("\r\n".utf8))
    }

    /// Under -q no status line is printed, so the sketch's newline stays
    /// (it was dropped: "armedax=0").
    @Test func aStatusLineNotShownDropsNothing() {
        var lines = StatusBetweenLines()
        _ = lines.serial(Array("armed".utf8))
        #expect(lines.status("[s] 0.1 s: serial matched \"armed\"", shown: false) == nil)
        #expect(Array(lines.serial(Array("\r\nax=0\r\n".utf8))) == Array("\r\nax=0\r\n".utf8))
    }
}
