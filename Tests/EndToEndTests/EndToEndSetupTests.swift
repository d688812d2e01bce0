@testable import BoardEmulator
import Foundation
import SerialIO
import TestSupport
import Testing
import TiltCore
import TiltDisplay
import TiltserialCommand
import WireProtocol

/// The display choice kept in the board's EEPROM, with our firmware in simavr
/// (which models the EEPROM, kept across resets): `tiltserial setup --display`
/// stores it and PARTS says so, a reset keeps it, the waiting screen names it,
/// `--display auto` forgets it; DISPLAY try shows the test pattern, whole only
/// as the kind the module really is.
@Suite(.serialized) struct EndToEndSetupTests {
    /// `tiltserial ARGS` in this process, to its end: (exit code, stdout, stderr).
    static func tiltserial(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let captured = CapturedConsole()
        let stop = try! WakeUpPipe()
        var context = CommandContext(console: captured.console, stop: stop, handleSignals: false)
        context.inputIsTerminal = false
        let code = TiltserialMain.run(arguments: arguments, context: context)
        return (code, captured.out, captured.err)
    }

    /// PARTS in answer to DESCRIBE, from a fresh connection.
    static func describe(_ path: String) throws -> PartsFrame? {
        let client = try PtyPeer(opening: path)
        try client.send(DescribeFrame())
        try client.read { !$0.parts.isEmpty }
        return client.parts.first
    }

    /// Whether the glass shows a border on all four edges: columns 0 and 127 lit
    /// top to bottom, rows 0 and 63 lit left to right.
    static func borderIsWhole(_ glass: Screen) -> Bool {
        let b = glass.bytes, w = Screen.width
        for page in 0..<Screen.pageCount where b[page * w] != 0xFF || b[page * w + w - 1] != 0xFF { return false }
        for x in 0..<w where b[x] & 0x01 == 0 || b[7 * w + x] & 0x80 == 0 { return false }
        return true
    }

    @Test func setupStoresTheDisplayAResetKeepsItAndAutoForgetsIt() throws {
        let board = try Firmware.board(displayPart: .sh1106)
        defer { board.stop() }
        board.start()
        let path = try #require(board.serialPath)
        let detected = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD", 7: "SH1106"])
        let stored = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD", 7: "SH1106 SET"])
        #expect(board.waitFor(timeout: .seconds(20)) { $0.display.glass == detected } != nil, "detected at first")

        let set = Self.tiltserial(["setup", "--display", "sh1106", "--no-dtr", path])
        #expect(set.code == 0, "\(set.err)")
        #expect(set.out == "stored in the board: display SH1106 128x64 (tiltserial setup --display auto goes back to detecting it)\n")
        #expect(board.waitFor(timeout: .seconds(20)) { $0.display.glass == stored } != nil, "the waiting screen says SH1106 SET")

        board.reset()
        let afterReset = try #require(try Self.describe(path))
        #expect(afterReset.displayKind == 1 && afterReset.kindStored, "\(afterReset)")
        #expect(afterReset.summary.hasSuffix("(set by tiltserial setup)"))
        #expect(board.waitFor(timeout: .seconds(20)) { $0.display.glass == stored } != nil, "still set after a reset")

        let auto = Self.tiltserial(["setup", "--display", "auto", "--no-dtr", path])
        #expect(auto.code == 0, "\(auto.err)")
        #expect(auto.out == "the board detects its display again: SH1106 128x64 found\n")
        board.reset()
        let forgotten = try #require(try Self.describe(path))
        #expect(forgotten.displayKind == 1 && !forgotten.kindStored, "\(forgotten)")
        #expect(board.waitFor(timeout: .seconds(20)) { $0.display.glass == detected } != nil, "detected again")
    }

    /// An SSD1306 stored as an SH1106 (the wrong answer in `tiltserial
    /// setup`): after a power cycle the waiting screen shows two columns off, as
    /// the docs and the troubleshooting table say, not a dark glass (the
    /// SH1106 set-up left the SSD1306's charge pump off).
    @Test func anSSD1306StoredAsAnSH1106ShowsItsPictureTwoColumnsOff() throws {
        let board = try Firmware.board(displayPart: .ssd1306)
        defer { board.stop() }
        board.start()
        let path = try #require(board.serialPath)
        let set = Self.tiltserial(["setup", "--display", "sh1106", "--no-dtr", path])
        #expect(set.code == 0, "\(set.err)")
        let before = try #require(board.waitFor(timeout: .seconds(5)) { _ in true }).simulatedMicros
        board.unplug()  // power off and on: the display starts over too (a reset alone keeps its charge pump on)
        _ = try board.plugIn()
        // The SH1106 set-up writes each page from column 2: on an SSD1306 the last two wrap to columns 0 and 1.
        let stored = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD", 7: "SH1106 SET"])
        var shifted = [UInt8](repeating: 0, count: Screen.byteCount)
        for page in 0..<8 {
            for x in 0..<Screen.width { shifted[page * Screen.width + (x + 2) % Screen.width] = stored.bytes[page * Screen.width + x] }
        }
        let expected = try #require(Screen(bytes: shifted))
        // Lit (the glass's brightness is 0 while the charge pump is off), a second after power-on.
        let lit = board.waitFor(timeout: .seconds(20)) {
            $0.simulatedMicros > before + 1_000_000 && $0.display.glass == expected && $0.display.brightness > 0
        }
        #expect(lit != nil, "two columns off after a power cycle, not dark")
    }

    /// `--display-clock` stores the display's clock beside the kind: PARTS
    /// names it, a reset keeps it, 400k puts the default back (and leaves
    /// the stored kind alone).
    @Test func setupStoresTheDisplaysClockAndAResetKeepsIt() throws {
        let board = try Firmware.board(displayPart: .sh1106)
        defer { board.stop() }
        board.start()
        let path = try #require(board.serialPath)
        let kind = Self.tiltserial(["setup", "--display", "sh1106", "--no-dtr", path])
        #expect(kind.code == 0, "\(kind.err)")
        let fast = Self.tiltserial(["setup", "--display-clock", "1m", "--no-dtr", path])
        #expect(fast.code == 0, "\(fast.err)")
        #expect(fast.out == "stored in the board: display SH1106 128x64 (tiltserial setup --display auto goes back to detecting it); "
            + "its clock 1 MHz, stored (tiltserial setup --display-clock 400k goes back)\n")
        board.reset()
        let afterReset = try #require(try Self.describe(path))
        #expect(afterReset.displayClock == .megahertz1 && afterReset.displayKind == 1 && afterReset.kindStored, "\(afterReset)")
        let back = Self.tiltserial(["setup", "--display-clock", "400k", "--no-dtr", path])
        #expect(back.code == 0, "\(back.err)")
        #expect(back.out == "stored in the board: display SH1106 128x64 (tiltserial setup --display auto goes back to detecting it); "
            + "its clock 400 kHz, stored\n")
        board.reset()
        let slow = try #require(try Self.describe(path))
        #expect(slow.displayClock == .kilohertz400 && slow.kindStored, "\(slow)")
    }

    /// `--display sh1106 --display-clock 800k` on a module that takes only
    /// 400 kHz: the clock is refused and put back, and the kind, stored first,
    /// stays stored; the line says both.
    @Test func aRefusedClockKeepsTheKindStoredWithIt() throws {
        var configuration = AVRBoard.Configuration(firmwarePath: try Firmware.path(), pace: .freeRunning,
                                                   motionSource: ConstantMotionSource.faceUp)
        configuration.display = .sh1106
        configuration.displayMaxClockHz = 400_000
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        board.start()
        let path = try #require(board.serialPath)
        let both = Self.tiltserial(["setup", "--display", "sh1106", "--display-clock", "800k", "--no-dtr", path])
        #expect(both.code == 28, "\(both.err)")
        #expect(both.err.contains("the display stays at 400 kHz; the display kind is stored all the same: "
            + "stored in the board: display SH1106 128x64"), "\(both.err)")
        let parts = try #require(try Self.describe(path))
        #expect(parts.kindStored && parts.displayKind == 1 && parts.displayClock == .kilohertz400, "\(parts)")
    }

    @Test func theTestPatternIsWholeOnlyAsTheKindTheModuleIs() throws {
        let board = try Firmware.board(displayPart: .sh1106)
        defer { board.stop() }
        let client = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        #expect(try client.read { $0.hellos.count >= 1 })
        for (kind, whole) in [(UInt8(0), false), (1, true)] {
            let before = client.parts.count
            try client.send(DisplayFrame(.tryKind, kind: kind))
            #expect(try client.read { $0.parts.count > before })
            let parts = try #require(client.parts.last)
            #expect(parts.displayKind == kind && parts.showsPattern && !parts.kindStored, "\(parts)")
            let shown = board.waitFor(timeout: .seconds(20)) { Self.borderIsWhole($0.display.glass) == whole }
            #expect(shown != nil, "as kind \(kind) the border is \(whole ? "whole" : "broken")")
        }
        // An unknown kind changes nothing; end goes back to detection, pattern off.
        let before = client.parts.count
        try client.send(DisplayFrame(.tryKind, kind: 9))
        try client.send(DisplayFrame(.end))
        #expect(try client.read { $0.parts.count >= before + 2 })
        #expect(client.parts[before].displayKind == 1 && client.parts[before].showsPattern)
        #expect(client.parts[before + 1].displayKind == 1 && !client.parts[before + 1].showsPattern)
        let detected = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD", 7: "SH1106"])
        #expect(board.waitFor(timeout: .seconds(20)) { $0.display.glass == detected } != nil)
    }

    /// The native board runs the same C for DISPLAY and keeps the record in
    /// memory: the same answers, the same waiting screen, kept across a reset.
    @Test func theNativeBoardAnswersAlike() throws {
        let board = try NativeBoard(.init(sampleRateHz: 100, pace: .realTime))
        defer { board.stop() }
        board.start()
        let path = try #require(board.serialPath)
        let set = Self.tiltserial(["setup", "--display", "sh1106", path])
        #expect(set.code == 0, "\(set.err)")
        #expect(set.out == "stored in the board: display SH1106 128x64 (tiltserial setup --display auto goes back to detecting it)\n")
        let stored = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD", 7: "SH1106 SET"])
        #expect(board.waitFor(timeout: .seconds(20)) { $0.screen == stored } != nil, "the waiting screen says SH1106 SET")
        board.reset()
        let parts = try #require(try Self.describe(path))
        #expect(parts == PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C, displayKind: 1, flags: PartsFrame.kindStoredFlag))
        #expect(board.waitFor(timeout: .seconds(20)) { $0.screen == stored } != nil, "still set after a reset")
        // Trying another kind is not storing it; end goes back to the stored one.
        let client = try PtyPeer(opening: path)
        try client.send(DisplayFrame(.tryKind, kind: 0))
        try client.send(DisplayFrame(.end))
        #expect(try client.read { $0.parts.count >= 2 })
        #expect(client.parts[0] == PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C, displayKind: 0, flags: PartsFrame.patternFlag))
        #expect(client.parts[1] == parts)
    }
}
