import Foundation
import Testing
import TiltAssets
import TiltDisplay
import WireProtocol

@Suite struct LiveViewTests {
    @Test func onATerminalTheViewMirrorsTheBoardsDisplayAndRestoresTheScreen() throws {
        let link = tempPath("board")
        let board = try TestBoard(link: link)
        defer { board.close() }
        let host = InProcessHost(["run", link], terminal: true)
        #expect(try board.waitFor { _ in board.hostHellos == 1 })
        let stream = Stream.samples(0..<1500)
        try board.sendChunked(Stream.hello() + stream.wire)
        let expected = Stream.expectedOffsets(stream.samples)
        #expect(try board.waitFor { _ in board.offsets.count >= expected.count })

        // What the board must be showing now, drawn as the view draws it.
        var frame = Frame()
        let last = expected.last!
        try TiltAssets.load().renderer.render(viewportX: last.viewportX, viewportY: last.viewportY, ribbonX: last.ribbonX,
                                          ribbonBottom: last.ribbonBottom, into: &frame)
        let mirror = HalfBlocks.lines(frame).map { "│" + $0 + "│" }.joined(separator: "\u{1B}[K\n")
        #expect(host.captured.waitFor(seconds: 10) { _, err in err.contains(mirror) }, "a redraw shows the board's frame")
        #expect(host.interrupt() == 0)

        let err = host.captured.err
        #expect(err.hasPrefix("\u{1B}[?1049h\u{1B}[?25l"), "alternate screen, cursor hidden")
        #expect(err.contains("\u{1B}[?25h\u{1B}[?1049l" + "tiltserial: stopped: "), "screen restored before the summary")
        #expect(err.contains("rate "))
        #expect(!err.contains("tiltserial: waiting"), "no log lines while the view is up")
    }
}
