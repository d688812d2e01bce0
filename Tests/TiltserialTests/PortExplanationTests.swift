import Foundation
import SerialIO
import Testing
@testable import TiltserialCommand

/// The one-line answers about the port itself (issue 22, item 4), with the
/// USB ids and the system's files faked at the edge that reads them.
@Suite struct PortExplanationTests {
    static func usb(_ vid: UInt16, _ pid: UInt16) -> (String) -> PortInfo? {
        { path in PortInfo(path: path, transport: .usb, usbVendorID: vid, usbProductID: pid) }
    }

    @Test func aNativeUSBBoardIsAskedForHelloAndSaysSo() throws {
        let note = try PortPreflight.check(path: "/dev/ttyACM0", baud: 115_200, info: Self.usb(0x2341, 0x8036))
        #expect(note == "/dev/ttyACM0: Leonardo (native USB): no reset on open; asked for HELLO")
        let proMicro = try PortPreflight.check(path: "/dev/ttyACM1", baud: 115_200, info: Self.usb(0x1B4F, 0x9206))
        #expect(proMicro == "/dev/ttyACM1: Pro Micro (native USB): no reset on open; asked for HELLO")
    }

    @Test func boardsThatResetOnOpenAndUnknownPortsNeedNoWord() throws {
        #expect(try PortPreflight.check(path: "/dev/ttyACM0", baud: 115_200, info: Self.usb(0x2341, 0x0043)) == nil)
        #expect(try PortPreflight.check(path: "/dev/ttyUSB0", baud: 1200, info: Self.usb(0x1A86, 0x7523)) == nil)
        #expect(try PortPreflight.check(path: "/dev/ttyUSB1", baud: 115_200, info: Self.usb(0x12D1, 0x1001)) == nil)
        #expect(try PortPreflight.check(path: "/dev/ttyUSB1", baud: 115_200, info: { _ in nil }) == nil)
    }

    @Test func aPseudoTerminalHasNoUSBFacts() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        #expect(PortPreflight.usbInfo(pty.slavePath) == nil)
        #expect(try PortPreflight.check(path: pty.slavePath, baud: 1200) == nil)
    }

    @Test func twelveHundredBaudIsRefusedOnANativeUSBBoard() {
        do {
            _ = try PortPreflight.check(path: "/dev/ttyACM0", baud: 1200, info: Self.usb(0x2341, 0x8037))
            Issue.record("a 1200-baud open of a Micro was allowed")
        } catch {
            #expect(error.code == .badSettings)
            #expect(error.message.hasPrefix("--baud 1200: refused for the Micro at /dev/ttyACM0 (2341:8037, native USB)"), "\(error.message)")
            #expect(error.message.contains("bootloader"))
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func aBootloadersPortIsNotOpened() {
        do {
            _ = try PortPreflight.check(path: "/dev/ttyACM0", baud: 115_200, info: Self.usb(0x2341, 0x0036))
            Issue.record("the Leonardo's bootloader was opened")
        } catch {
            #expect(error.code == .noValidFrames)
            #expect(error.message.hasPrefix("/dev/ttyACM0: this is the Leonardo's bootloader (2341:0036), not the sketch"), "\(error.message)")
        }
    }

    /// A missing or vanished port: the usual hint, unless brltty took the bridge.
    @Test func aMissingPortStillSaysListOrBrltty() throws {
        let root = NSTemporaryDirectory() + "tiltserial-root-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let missing = SerialError.noSuchPort(port: "/dev/ttyUSB0")
        // No brltty: the usual hint.
        #expect(Failure(missing, systemRoot: root).message
            == "/dev/ttyUSB0: no such serial port; run `tiltserial list` to see the ports present")
        // brltty's rules claim the CH340 that is plugged in without its tty.
        try Self.fakeBrlttyConflict(root: root)
        let failure = Failure(missing, systemRoot: root)
        #expect(failure.code == .noSuchPort)
        #expect(failure.message.hasPrefix("/dev/ttyUSB0: a CH340 USB-serial bridge (1a86:7523, USB 1-3) is plugged in but has no serial port: brltty"),
                "\(failure.message)")
        #expect(failure.message.contains("`sudo apt remove brltty`"))
        #expect(!failure.message.contains("\n"))
        let gone = Failure(.deviceGone(port: "/dev/ttyUSB0"), systemRoot: root)
        #expect(gone.code == .deviceGone)
        #expect(gone.message.contains("brltty"))
        // Other errors are not about a vanished port.
        #expect(!Failure(.portBusy(port: "/dev/ttyUSB0", holder: nil), systemRoot: root).message.contains("brltty"))
    }

    /// Several boards: each named with what USB says, four at most, on the error's one line.
    @Test func severalBoardsAreNamedOnTheErrorsLine() {
        func uno(_ n: Int) -> PortInfo {
            PortInfo(path: "/dev/ttyACM\(n)", transport: .usb, usbVendorID: 0x2341, usbProductID: 0x0043, manufacturer: "Arduino")
        }
        for (count, tail) in [(2, ""), (6, "; 2 more: tiltserial list")] {
            do {
                _ = try PortPicker.pick(say: { _ in }, ports: (0..<count).map(uno))
                Issue.record("a port was picked")
            } catch {
                let named = (0..<min(count, 4)).map { "/dev/ttyACM\($0): 2341:0043, Arduino" }.joined(separator: "; ")
                #expect(error.message == "\(count) boards found; name one: tiltserial PORT (\(named)\(tail))", "\(error.message)")
            }
        }
    }

    @Test func noBoardFoundNamesBrlttyWhenItTookTheBridge() throws {
        let root = NSTemporaryDirectory() + "tiltserial-root-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let console = PortInfo(path: "/dev/ttyS0", transport: .native)
        do {
            _ = try PortPicker.pick(say: { _ in }, ports: [console], systemRoot: root, emulatedLinks: { [] })
            Issue.record("a port was picked")
        } catch {
            #expect(error.code == .noBoardFound)
            // One line, with the ports present (they came out as "\n  /dev/ttyS0").
            #expect(error.message == "no board found; plug one in, or name the port: tiltserial PORT (ports present: /dev/ttyS0)",
                    "\(error.message)")
        }
        // A running tiltsim's board is named, never picked (a tester's "plug one in" beside one).
        do {
            _ = try PortPicker.pick(say: { _ in }, ports: [console], systemRoot: root,
                                    emulatedLinks: { [EmulatedLinks.Link(path: "/tmp/board", pty: "/dev/pts/7", pid: 42)] })
            Issue.record("a port was picked")
        } catch {
            #expect(error.message == "no board found; plug one in, or name the port: tiltserial PORT (ports present: /dev/ttyS0); "
                    + "tiltsim's board: tiltserial /tmp/board", "\(error.message)")
        }
        // Two named, the rest counted (a third was left out without a word).
        for count in [3, 5] {
            do {
                _ = try PortPicker.pick(say: { _ in }, ports: [], systemRoot: root, emulatedLinks: {
                    (1...count).map { EmulatedLinks.Link(path: "/tmp/board\($0)", pty: "/dev/pts/\($0)", pid: Int32(40 + $0)) }
                })
                Issue.record("a port was picked")
            } catch {
                let more = count == 3 ? "1 more tiltsim board" : "\(count - 2) more tiltsim boards"
                #expect(error.message == "no board found; plug one in, or name the port: tiltserial PORT; tiltsim's board: tiltserial /tmp/board1; "
                        + "tiltsim's board: tiltserial /tmp/board2; \(more): tiltserial list", "\(error.message)")
            }
        }
        try Self.fakeBrlttyConflict(root: root)
        do {
            _ = try PortPicker.pick(say: { _ in }, ports: [console], systemRoot: root)
            Issue.record("a port was picked")
        } catch {
            #expect(error.code == .noBoardFound)
            #expect(error.message.hasPrefix("no board found: a CH340 USB-serial bridge (1a86:7523"), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    /// Ubuntu 22.04's state after plugging in a CH340 board: brltty's rules
    /// in /lib, the USB device left without its ttyUSB0.
    static func fakeBrlttyConflict(root: String) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/lib/udev/rules.d", withIntermediateDirectories: true)
        #expect(fm.createFile(atPath: root + "/lib/udev/rules.d/85-brltty.rules", contents: Data(
            "ENV{PRODUCT}==\"1a86/7523/*\", ENV{BRLTTY_BRAILLE_DRIVER}=\"bm\", GOTO=\"brltty_usb_run\"\n".utf8)))
        let device = root + "/sys/bus/usb/devices/1-3"
        try fm.createDirectory(atPath: device + "/1-3:1.0", withIntermediateDirectories: true)
        #expect(fm.createFile(atPath: device + "/idVendor", contents: Data("1a86\n".utf8)))
        #expect(fm.createFile(atPath: device + "/idProduct", contents: Data("7523\n".utf8)))
    }

    /// A CH340 that brltty takes a second after it appears vanishes mid-run:
    /// the reconnecting host's line names the conflict and the command.
    @Test func aPortThatVanishesToBrlttySaysSoWhileWaiting() {
        let conflict = BrlttyConflict(vendorID: 0x1A86, productID: 0x7523, usbDevice: "1-3", evidence: "the brltty package")
        let line = RunOutput.deviceGone(port: "/dev/ttyUSB0", reconnecting: true, brltty: conflict)
        #expect(line.hasPrefix("/dev/ttyUSB0: device gone: a "))
        #expect(line.contains("(1a86:7523, USB 1-3)") && line.contains("sudo apt remove brltty"))
        #expect(line.hasSuffix("; waiting for it to come back (Ctrl-C to quit)…"))
        #expect(RunOutput.deviceGone(port: "/dev/ttyUSB0", reconnecting: false, brltty: nil) == "/dev/ttyUSB0: device gone")
        #expect(RunOutput.deviceGone(port: "/dev/ttyUSB0", reconnecting: true, brltty: nil)
            == "/dev/ttyUSB0: device gone; waiting for it to come back (Ctrl-C to quit)…")
    }

    /// A board that stopped streaming: silence points at the wires or a hung
    /// sketch, a frame cut short at a hung board, more bytes at the baud rate;
    /// one line each, the run going on.
    @Test func aBoardThatStopsStreamingIsToldApartBySilenceOrOtherBytes() {
        let silent = RunOutput.samplesStopped(micros: 2_000_000, bytes: 0)
        #expect(silent.hasPrefix("no sample from the board for 2.0 s, not a byte: ") && silent.contains("wires"))
        let other = RunOutput.samplesStopped(micros: 2_340_000, bytes: 812)
        #expect(other.hasPrefix("no sample from the board for 2.3 s, only 812 bytes of something else: ") && other.contains("--baud"))
        // Less than a frame (a board stopped mid-frame) is no baud rate's doing.
        let cut = RunOutput.samplesStopped(micros: 2_000_000, bytes: 7)
        #expect(cut == "no sample from the board for 2.0 s, only 7 bytes since (less than a frame): reset a hung board, or check its power and cable")
        #expect(RunOutput.samplesStopped(micros: 2_000_000, bytes: 1).contains("only 1 byte since"))
        #expect(RunOutput.samplesStopped(micros: 2_000_000, bytes: 4829, frames: 700)
            == "no sample from the board for 2.0 s, though it sent 700 other frames: its sensor's reads stopped; check the sensor's wires, or reset the board")
        #expect(RunOutput.samplesStopped(micros: 2_000_000, bytes: 67).contains("only 67 bytes of something else: check --baud"))
        #expect(![silent, other, cut].contains { $0.contains("\n") })
    }
}

/// Log lines on a terminal (TERM=dumb, --view none) have no key help under
/// them: the first line says how to stop; piped to a file it does not.
@Suite struct LogModeStopHintTests {
    @Test(arguments: [true, false])
    func theWaitingLineSaysHowToStopOnlyOnATerminal(terminal: Bool) throws {
        let lines = NSLock(), box = UnsafeMutableTransferBox([String]())
        let console = Console(errIsTerminal: terminal, out: { _ in }, err: { line in lines.withLock { box.value.append(line) } })
        let output = try RunOutput(console: console, output: try OutputOptions.parse([]), port: "/dev/ttyACM0", renderer: nil)
        output.news(.waitingForBoard)
        let text = lines.withLock { box.value.joined() }
        #expect(text.contains("/dev/ttyACM0: waiting for the board (it resets when the port opens)…"), "\(text)")
        #expect(text.contains("Ctrl-C stops the run.") == terminal, "\(text)")
    }
}
