import BoardEmulator
import Foundation
import SerialIO
import TiltDisplay
import TiltExitStatus

/// Runs until Ctrl-C or the duration: redraws the screen a few times a second,
/// writes the PNG on SIGUSR1 and at the end, and says when a board's output
/// went unread.
struct RunLoop {
    let boards: [any EmulatedBoard]
    let output: OutputOptions
    /// `--png`'s file.
    let png: OutputFile?
    let signals: SignalPipe

    /// How often the screen is redrawn.
    static let refresh = Duration.milliseconds(200)

    func run() throws {
        let started = Date()
        var unread = boards.map { UnreadWatch(reported: $0.unreadOutput.count) }
        var baudSaid = boards.map { _ in BaudMismatch?.none }
        var haltSaid = boards.map { _ in false }
        if output.screen && TerminalInfo.isTerminal(2) { StandardStreams.err("\u{1B}[2J") }
        var redraws = 0
        loop: while true {
            var timeout: Duration = output.screen ? Self.refresh : .seconds(1)
            if let duration = output.duration {
                let left = duration - Date().timeIntervalSince(started)
                if left <= 0 { break }
                timeout = min(timeout, max(.milliseconds(1), .milliseconds(Int64(left * 1000))))
            }
            for signal in signals.wait(timeout: timeout) {
                switch signal {
                case .user1: try writePNG()
                default: break loop
                }
            }
            for (index, board) in boards.enumerated() {
                if let notice = unread[index].check(board, atExit: false) { say(notice) }
                if let avr = board as? AVRBoard, avr.currentStatus.baudMismatch != baudSaid[index] {
                    baudSaid[index] = avr.currentStatus.baudMismatch
                    if let notice = Self.baudNotice(baudSaid[index], port: board.serialPath) { say(notice) }
                }
                if let avr = board as? AVRBoard {
                    let status = avr.currentStatus
                    if case .halted(let reason) = status.state {
                        if !haltSaid[index] { say(Self.haltNotice(reason, atMicros: status.simulatedMicros, port: board.serialPath,
                                                                  resetsOnOpen: avr.configuration.resetOnConnect)) }
                        haltSaid[index] = true
                    } else {
                        haltSaid[index] = false  // running again: a second halt is said too
                    }
                }
            }
            if output.screen {
                drawScreen(plainLine: redraws % 5 == 0)
                redraws += 1
            }
        }
        if output.screen && TerminalInfo.isTerminal(2) { StandardStreams.err("\n") }  // the status line's end: the last lines below it
        for (index, board) in boards.enumerated() {
            if let notice = unread[index].check(board, atExit: true) { say(notice) }
        }
        try writePNG()
        reportSpeed()
        reportGlassStats()
    }

    /// `--stats`: one line on stderr, the glass's frames/s and motion to photon.
    private func reportGlassStats() {
        guard output.stats else { return }
        guard let avr = boards.first as? AVRBoard else { return say("no glass statistics: the board runs the native engine") }
        guard let stats = avr.glassStats else { return say("no glass statistics (the board had stopped)") }
        say(stats.line)
    }

    /// One line on stderr: how much board time ran (the figure docs/perf/native.md quotes).
    private func reportSpeed() {
        guard let board = boards.first else { return }
        let report = board.speedReport()
        // A board waits for its first host (unless --run-now): none came, nothing ran.
        guard report.wallSeconds > 0 else { return say("the board never ran: no host opened its port (--run-now runs it without one)") }
        say(String(format: "%.2f board seconds in %.2f wall seconds (%.2fx)%@",
                   report.simulatedSeconds, report.wallSeconds, report.ratio,
                   boards.count > 1 ? " per board, \(boards.count) boards" : ""))
    }

    /// The glass as large as the terminal fits (`ScreenFrame`); on a colour
    /// terminal lit pixels take the brightness the contrast gives them. When
    /// stderr is no terminal (a log file), no escapes: the status line alone,
    /// when `plainLine` (once a second).
    private func drawScreen(plainLine: Bool) {
        guard let board = boards.first else { return }
        guard let size = TerminalInfo.windowSize(2) else {
            if plainLine { StandardStreams.err(statusLine(board) + "\n") }
            return
        }
        StandardStreams.err(ScreenFrame.text(board.displayedScreen, status: statusLine(board), columns: size.columns, rows: size.rows,
                                             grey: Self.colour ? board.displayedBrightness : nil))
    }

    private func writePNG() throws {
        guard let png, let board = boards.first else { return }
        do throws(CommandFailure) {
            try PNGFile.write(board.displayedScreen, to: png, lit: board.displayedBrightness)
        } catch {
            error.report()
            throw error
        }
        say("wrote the board's screen to \(png.path)")
    }

    /// One line when the firmware halts (a crash, or asleep with interrupts
    /// off): the board serves nothing more, and a host would only time out.
    static func haltNotice(_ reason: String, atMicros: UInt64, port: String?, resetsOnOpen: Bool) -> String {
        let what = reason.split(separator: ";").first.map(String.init) ?? reason  // without the API's "reset() restarts it"
        let seconds = String(format: "%.3f", Double(atMicros) / 1_000_000)
        return "\(port ?? "the board"): \(what) at \(seconds) s of board time; "
            + (resetsOnOpen ? "a host opening the port resets it" : "start tiltsim again to reset it")
            + " (a sketch built for another board? see --board)"
    }

    /// One line when a host opens the port at a baud rate the sketch does not use.
    static func baudNotice(_ mismatch: BaudMismatch?, port: String?) -> String? {
        guard let mismatch else { return nil }
        return "\(port ?? "the board's port"): the host set \(mismatch.host) baud and the sketch's Serial runs at "
            + "\(mismatch.sketch): each reads the other's bytes as garbage, as with a board (tiltserial --baud \(mismatch.sketch))"
    }

    private func say(_ line: String) {
        StandardStreams.err("tiltsim: \(line)\n")
    }

    /// Colour on stderr (`TerminalInfo.colourAllowed`).
    static let colour: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return TerminalInfo.colourAllowed(noColor: environment["NO_COLOR"], term: environment["TERM"], isTerminal: TerminalInfo.isTerminal(2))
    }()
}

/// Turns a board's growing count of unread output into one notice per
/// episode: when the count stops growing (a host is reading again) or at exit.
struct UnreadWatch {
    var reported: UInt64
    private var growing = false
    private var last: UInt64

    init(reported: UInt64) {
        self.reported = reported
        last = reported
    }

    mutating func check(_ board: any EmulatedBoard, atExit: Bool) -> String? {
        let now = board.unreadOutput
        let grew = now.count > last
        last = now.count
        if grew && !atExit {
            growing = true
            return nil
        }
        guard now.count > reported else { return nil }
        defer { reported = now.count; growing = false }
        let port = board.serialPath ?? "the board's port"
        let dropped = now.count - reported
        return "\(port): \(now.counted(dropped)) the board sent \(dropped == 1 ? "was" : "were") dropped \(now.circumstance)"
    }
}
