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

    /// The UART hands the sketch's "\r\n" over a byte at a time: both are
    /// taken (the "\r" went through, then a "\n": a blank line).
    @Test func aNewlineSplitAcrossChunksIsTakenWhole() {
        var lines = StatusBetweenLines()
        _ = lines.serial(Array("servo ready".utf8))
        #expect(lines.status("[s] 0.1 s: serial matched \"ready\"") != nil)
        #expect(Array(lines.serial([13])).isEmpty)
        #expect(Array(lines.serial([10])).isEmpty)
        #expect(Array(lines.serial(Array("next\r\n".utf8))) == Array("next\r\n".utf8))
        // A "\r" and then not a "\n": the rest is kept.
        _ = lines.serial(Array("half".utf8))
        _ = lines.status("[s] 0.2 s: x")
        #expect(Array(lines.serial([13])).isEmpty)
        #expect(Array(lines.serial(Array("ab".utf8))) == Array("ab".utf8))
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
