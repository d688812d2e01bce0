import BoardEmulator
import Foundation
import TiltDisplay
#if canImport(Glibc)
import Glibc
#endif

/// Runs until Ctrl-C or the duration: redraws the screen a few times a second,
/// writes the PNG on SIGUSR1 and at the end.
struct RunLoop {
    let boards: [any EmulatedBoard]
    let output: OutputOptions
    let signals: SignalPipe

    static let refreshMillis: Int32 = 200

    func run() throws {
        let started = Date()
        if output.screen { FileHandle.standardError.write(Data("\u{1B}[2J".utf8)) }
        loop: while true {
            var timeout: Int32 = output.screen ? Self.refreshMillis : 1000
            if let duration = output.duration {
                let left = duration - Date().timeIntervalSince(started)
                if left <= 0 { break }
                timeout = min(timeout, Int32(max(1, left * 1000)))
            }
            for signal in signals.wait(timeoutMillis: timeout) {
                switch signal {
                case SIGUSR1: try writePNG()
                default: break loop
                }
            }
            if output.screen { drawScreen() }
        }
        try writePNG()
        reportSpeed()
    }

    /// One line on stderr: how much board time ran (the figure docs/perf/native.md quotes).
    private func reportSpeed() {
        guard let board = boards.first else { return }
        let report = board.speedReport()
        let line = String(format: "tiltsim: %.2f board seconds in %.2f wall seconds (%.2fx)%@\n",
                          report.simulatedSeconds, report.wallSeconds, report.ratio,
                          boards.count > 1 ? " per board, \(boards.count) boards" : "")
        FileHandle.standardError.write(Data(line.utf8))
    }

    private func drawScreen() {
        guard let board = boards.first else { return }
        var text = "\u{1B}[H"
        for line in HalfBlocks.lines(board.displayedFrame) { text += line + "\u{1B}[K\n" }
        text += statusLine(board) + "\u{1B}[K\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    private func writePNG() throws {
        guard let file = output.png, let board = boards.first else { return }
        let bytes = PNGEncoder.encode(board.displayedFrame, scale: 4, lit: board.displayedBrightness)
        let temporary = file + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)),
              rename(temporary, file) == 0 else {
            let failure = TiltsimFailure.file("\(file): cannot write the PNG; check the directory exists and is writable")
            failure.report()
            throw failure
        }
    }
}
