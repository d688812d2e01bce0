import Foundation
import TestSupport
import Testing
import TiltAssets
import TiltDisplay
@testable import TiltserialCommand
import WireProtocol

@Suite struct LiveViewTests {
    /// The last complete redraw in `err`: its lines, without the erase sequences.
    static func lastScreen(_ err: String) -> [String] {
        let whileUp = err.components(separatedBy: LiveView.leaveSequence)[0]
        guard let last = whileUp.components(separatedBy: "\u{1B}[H").dropFirst().last else { return [] }
        return last.replacingOccurrences(of: "\u{1B}[2J", with: "").replacingOccurrences(of: "\u{1B}[J", with: "")
            .components(separatedBy: "\r\n").map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }
    }

    static let heldTiltRaw = Stream.heldTilt(0..<1500).wire

    @Test(arguments: [(80, 24, CellDensity.braille), (100, 40, .quadrants), (140, 45, .halfBlocks)])
    func onATerminalTheViewMirrorsTheBoardsDisplayAndRestoresTheScreen(columns: Int, rows: Int, density: CellDensity) throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--physics", "recipe"], terminal: true, screen: .fixed(columns: columns, rows: rows))
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.sendChunked(Stream.hello() + Self.heldTiltRaw)
        let expected = Stream.recipeOffsets(forHeldTilt: 1500)
        #expect(try board.read { _ in board.offsets.count >= expected.count })

        // What the board must be showing now: docs/display.md's pixel rule on the art files
        // (not the host's renderer), at the last OFFSETS the recipe gives.
        let last = expected.last!
        let boardScreen = screen(showing: referenceScreen(
            tile: TiltAssets.tile.bitmap, ribbon: TiltAssets.ribbon.mask, vx: Int(last.viewportX), vy: Int(last.viewportY),
            rx: Int(last.ribbonX), rb: Int(last.ribbonBottom)))
        let mirror = ["┌" + String(repeating: "─", count: density.columns) + "┐"]
            + density.lines(boardScreen).map { "│" + $0 + "│" } + ["└" + String(repeating: "─", count: density.columns) + "┘"]
        func showsBoard(_ err: String) -> Bool {
            let screen = Self.lastScreen(err)
            guard let top = screen.firstIndex(where: { $0.hasPrefix(mirror[0]) }), top + mirror.count <= screen.count else { return false }
            return zip(screen[top...], mirror).allSatisfy { $0.hasPrefix($1) }
        }
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in showsBoard(err) }, "a redraw shows the board's screen in \(density)")
        let screen = Self.lastScreen(host.captured.err)
        #expect(screen.count <= rows)
        #expect(screen.allSatisfy { TerminalWidth.columns($0) <= columns }, "no line wider than the terminal")
        #expect(screen[0].contains("rate ") && screen[0].contains("lost 0") && screen[0].contains("errors 0"))
        #expect(screen.contains { $0.contains("ax") && $0.contains("-8192") }, "the sensor panel shows the raw counts")
        #expect(host.interrupt() == 0)

        let err = host.captured.err
        #expect(err.hasPrefix("\u{1B}[?1049h\u{1B}[?25l"), "alternate screen, cursor hidden")
        #expect(err.contains("\u{1B}[?25h\u{1B}[?1049l" + "tiltserial: stopped: "), "screen restored before the summary")
        #expect(!err.contains("tiltserial: waiting"), "no log lines while the view is up")
        #expect(!err.contains("\u{1B}[1;31m") && !err.contains("\u{1B}[0m"), "no colour when the screen says none")
    }

    @Test func jsonToTheSameTerminalMeansNoViewAndSaysWhy() throws {
        let screen = TerminalScreen(size: { TerminalSize(columns: 80, rows: 24) }, outIsSameTerminal: true)
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--json"], terminal: true, screen: screen)
        #expect(try board.read { _ in board.hostHellos == 1 })
        #expect(host.interrupt() == 0)
        #expect(!host.captured.err.contains("\u{1B}[?1049h"), "no view")
        #expect(host.captured.err.hasPrefix("tiltserial: --json goes to this terminal, so no live view"))
        let forced = runTiltserial(["run", link, "--json", "--view", "compact"], terminal: true, screen: screen)
        #expect(forced.code == 21)
        #expect(forced.err == "tiltserial: error: --view compact with --json: both would write to this terminal; send the JSON elsewhere (--json > ticks.jsonl) or leave out --view\n")
    }
}
