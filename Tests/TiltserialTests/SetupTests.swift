@testable import BoardEmulator
import Foundation
import SerialIO
import TestSupport
import Testing
import WireProtocol

/// `tiltserial setup` in-process on the native board's pty (the firmware's own
/// C handles DISPLAY and keeps the EEPROM record in memory), the person's
/// answers scripted; and its refusals.
@Suite(.serialized) struct SetupTests {
    static func board() throws -> NativeBoard {
        let board = try NativeBoard(.init(sampleRateHz: 100, pace: .realTime))
        board.start()
        return board
    }

    /// `tiltserial setup ARGS PORT` with `answers` typed (nil: stdin is no terminal).
    static func setup(_ arguments: [String], on board: NativeBoard, answers: [String]? = nil) throws -> (code: Int32?, out: String, err: String) {
        let path = try #require(board.serialPath)
        let host = InProcessHost(["setup"] + arguments + [path], answers: answers)
        let code = host.wait(seconds: 30)
        if code == nil { _ = host.interrupt() }
        return (code, host.captured.out, host.captured.err)
    }

    @Test func displayStoresWithoutAskingAndAutoForgets() throws {
        let board = try Self.board()
        defer { board.stop() }
        let stored = try Self.setup(["--display", "ssd1306-128x32"], on: board)
        #expect(stored.code == 0, "\(stored.err)")
        #expect(stored.out == "stored in the board: display SSD1306 128x32 (tiltserial setup --display auto goes back to detecting it)\n")
        #expect(!stored.err.contains("test pattern"), "nothing asked")
        let auto = try Self.setup(["--display", "auto"], on: board)
        #expect(auto.code == 0, "\(auto.err)")
        #expect(auto.out == "the board detects its display again: SSD1306 128x64 found\n")
    }

    /// `--display-clock` alone asks nothing (no terminal needed) and the
    /// native board draws at the clock from then on; an unknown word says what to give.
    @Test func displayClockStoresWithoutAskingAndSaysWhatToGive() throws {
        let board = try Self.board()
        defer { board.stop() }
        let fast = try Self.setup(["--display-clock", "800K"], on: board)
        #expect(fast.code == 0, "\(fast.err)")
        #expect(fast.out == "display SSD1306 128x64, detected; its clock 800 kHz, stored "
            + "(tiltserial setup --display-clock 400k goes back)\n")
        let back = try Self.setup(["--display-clock", "400k"], on: board)
        #expect(back.out == "display SSD1306 128x64, detected; its clock 400 kHz, stored\n", "\(back.err)")
        let unknown = try Self.setup(["--display-clock", "2m"], on: board)
        #expect(unknown.code == 21)
        #expect(unknown.err == "tiltserial: error: --display-clock 2m: not a display clock; give one of 100k, 400k, 800k, 1m\n")
    }

    @Test func theKindInUseIsShownFirstAndTheConfirmedOneStored() throws {
        let board = try Self.board()
        defer { board.stop() }
        let result = try Self.setup([], on: board, answers: ["maybe", "n", "Y"])
        #expect(result.code == 0, "\(result.err)")
        let prompts = result.err.split(separator: "\n").filter { $0.contains("shows a test pattern as") }
        #expect(prompts.count == 2, "\(result.err)")
        #expect(prompts.first?.contains("as SSD1306 128x64:") == true, "the detected kind first")
        #expect(prompts.last?.contains("as SH1106 128x64:") == true)
        #expect(result.err.contains("answer y, n or q"), "an unclear answer is asked again")
        #expect(result.out == "stored in the board: display SH1106 128x64 (tiltserial setup --display auto goes back to detecting it)\n")
        // Stored: the next run starts from it.
        let again = try Self.setup([], on: board, answers: ["y"])
        #expect(again.err.contains("shows a test pattern as SH1106 128x64:"), "\(again.err)")
        #expect(again.code == 0)
    }

    @Test(arguments: [(["n", "n", "n"], "no display kind showed a whole border"), (["q"], "stopped before"), ([], "stopped before")])
    func refusingEveryKindOrStoppingStoresNothing(answers: [String], message: String) throws {
        let board = try Self.board()
        defer { board.stop() }
        let result = try Self.setup([], on: board, answers: answers)
        #expect(result.code == 28, "\(result.err)")
        #expect(result.err.contains("tiltserial: error: \(message)"), "\(result.err)")
        // Nothing stored, the pattern gone: the board answers as detected.
        let auto = try Self.setup(["--display", "auto"], on: board)
        #expect(auto.out == "the board detects its display again: SSD1306 128x64 found\n", "\(auto.err)")
    }

    @Test func withoutATerminalOrWithAnUnknownKindItSaysWhatToGive() throws {
        let board = try Self.board()
        defer { board.stop() }
        let noTerminal = try Self.setup([], on: board)
        #expect(noTerminal.code == 21)
        #expect(noTerminal.err == "tiltserial: error: setup asks whether the test pattern's border is whole, but stdin is not a terminal; "
            + "give --display ssd1306, sh1106, ssd1306-128x32 or auto\n")
        let unknown = try Self.setup(["--display", "oled"], on: board)
        #expect(unknown.code == 21)
        #expect(unknown.err == "tiltserial: error: --display oled: not a display kind; give one of ssd1306, sh1106, ssd1306-128x32, auto\n")
    }

    /// Older firmware skips DISPLAY as an unknown type: one line and exit 28, not a hang.
    @Test func firmwareThatDoesNotKnowDisplaySaysToFlashTheNewOne() throws {
        let link = tempPath("setup-old-board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["setup", "--display", "sh1106", link])
        // The open flushes what came before it: HELLO once the host asked for it.
        #expect(try board.read { _ in board.hostHellos >= 1 })
        try board.send(Stream.hello())
        let code = host.wait(seconds: 30)
        #expect(code == 28, "\(host.captured.err)")
        #expect(host.captured.err.contains("the board did not answer DISPLAY: its firmware is older than tiltserial setup; flash the new one"))
        try board.readAvailable()
        #expect(board.frames.contains { if case .display(let d) = $0 { d == DisplayFrame(.store, kind: 1) } else { false } })
    }

    /// A board whose display did not answer: nothing is stored, exit 28 names
    /// the wiring (a kind was stored for it and the error blamed the EEPROM;
    /// `--display auto` said "SSD1306 128x64 found").
    @Test(arguments: [["--display", "sh1106"], ["--display", "auto"], ["--display-clock", "800k"]])
    func aBoardWithoutADisplayStoresNothing(options: [String]) throws {
        let link = tempPath("setup-no-display")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["setup"] + options + [link])
        #expect(try board.read { _ in board.hostHellos >= 1 })
        try board.send(Stream.hello(status: 1))
        let code = host.wait(seconds: 30)
        #expect(code == 28, "\(host.captured.err)")
        #expect(host.captured.err.contains("the board found no display (its HELLO says display NOT answering); check its wiring (SDA, SCL, power), "
            + "then run tiltserial setup again; nothing changed"), "\(host.captured.err)")
        try board.readAvailable()
        #expect(!board.frames.contains { if case .display = $0 { true } else { false } }, "nothing sent to store")
    }

    /// Firmware from before the clock setting answers set-clock with PARTS as
    /// it stands (clock bits 0): setup says so, puts 400k back, exits 28.
    @Test func firmwareThatKeeps400KilohertzSaysWhyAndPutsItBack() throws {
        let link = tempPath("setup-clock-board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["setup", "--display-clock", "1m", link])
        #expect(try board.read { _ in board.hostHellos >= 1 })
        try board.send(Stream.hello())
        let setClocks = { board.frames.filter { if case .display(let d) = $0 { d.operation == 4 } else { false } }.count }
        let asIs = PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C)
        #expect(try board.read { _ in setClocks() >= 1 })
        try board.send(asIs)
        #expect(try board.read { _ in setClocks() >= 2 })
        try board.send(asIs)
        let code = host.wait(seconds: 30)
        #expect(code == 28, "\(host.captured.err)")
        // Only the cause that fits: its PARTS has no fall-back flag, so the firmware does not know the setting.
        #expect(host.captured.err.contains("the board runs its display at 400 kHz, not 1 MHz: the board's firmware predates the setting "
                                           + "(flash the new one); the display stays at 400 kHz"), "\(host.captured.err)")
        #expect(board.frames.contains { if case .display(let d) = $0 { d == DisplayFrame(setClock: .kilohertz400) } else { false } })
    }

    /// Firmware that knows the setting and could not keep it says so (PARTS
    /// flag bit 4): the display was too slow, or the board is an 8 MHz one;
    /// not "flash the new one", which it runs already.
    @Test func aClockTheDisplayDidNotTakeNamesOnlyTheCausesThatFit() throws {
        let link = tempPath("setup-clock-fell-back")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["setup", "--display-clock", "800k", link])
        #expect(try board.read { _ in board.hostHellos >= 1 })
        try board.send(Stream.hello())
        let setClocks = { board.frames.filter { if case .display(let d) = $0 { d.operation == 4 } else { false } }.count }
        let fellBack = PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C, flags: 0x10)  // 400 kHz, fell back
        #expect(try board.read { _ in setClocks() >= 1 })
        try board.send(fellBack)
        #expect(try board.read { _ in setClocks() >= 2 })
        try board.send(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C))
        #expect(host.wait(seconds: 30) == 28, "\(host.captured.err)")
        #expect(host.captured.err.contains("the board runs its display at 400 kHz, not 800 kHz: the display did not answer that fast "
                                           + "(shorten its wires, or keep 400k), or the board runs at 8 MHz (its I2C tops out at 500 kHz); "
                                           + "the display stays at 400 kHz"), "\(host.captured.err)")
        #expect(!host.captured.err.contains("predates"))
    }
}

extension SetupTests {
    /// A port where another sketch talks: setup says what came instead of
    /// HELLO and how to fix it, as `run` does (it said only "no HELLO").
    @Test func anotherSketchsTextIsQuotedWhenNoHelloComes() throws {
        let link = tempPath("other-sketch")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["setup", "--display", "sh1106", "--hello-timeout", "1000", link])
        var code: Int32?
        while code == nil {
            try board.send(Array("tilt_bar ready\r\nax=120\r\n".utf8))
            code = host.wait(seconds: 0.05)
        }
        #expect(code == 15)
        #expect(host.captured.err.contains("no HELLO within 1.0 s: text arrived but not in a known format (first line 'tilt_bar ready'); "
            + "flash the sketch from Hardware/"), "\(host.captured.err)")
    }
}

/// The real binary with a person at a terminal (stdin a pty): Ctrl-C at
/// setup's question ends it as `q` does, one line and exit 28, and the board
/// is told to end its test pattern. Before, the signal killed the process
/// (exit 130, nothing said, the test pattern left on the glass).
@Suite(.serialized) struct SetupInterruptTests {
    @Test func ctrlCAtTheQuestionEndsSetupAsQDoes() throws {
        let board = try SetupTests.board()
        defer { board.stop() }
        let path = try #require(board.serialPath)
        let terminal = try PseudoTerminal.open(keepSlaveOpen: true)
        defer { terminal.close() }
        let process = productProcess("tiltserial", ["setup", path])
        let home = tempPath("setup-home")  // no default config file of this machine's
        process.environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state"]
        process.standardInput = FileHandle(forReadingAtPath: terminal.slavePath)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let err = Pipe()
        process.standardError = err
        try process.run()
        var text = readUntil("is the border whole", from: err)
        #expect(text.contains("is the border whole"), "asked: \(text)")
        let (ended, rest) = signalAndAwaitEnd(process, SIGINT, reading: err)
        #expect(ended, "still running 30 s after Ctrl-C")
        text += rest
        #expect(process.terminationReason == .exit && process.terminationStatus == 28, "\(process.terminationReason) \(process.terminationStatus): \(text)")
        #expect(text.hasSuffix("tiltserial: error: stopped before a display choice was stored; nothing changed\n"), "\(text)")
    }
}
