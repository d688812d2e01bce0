import Foundation
@testable import SerialIO
import Testing

/// The live view's key mode on a real pseudo-terminal, the way a terminal
/// window's tty is: Ctrl-S must not stop the view's output (a tester's Ctrl-S
/// held a whole run: the link unread, thousands of frames lost).
@Suite(.serialized) struct TerminalKeyModeTests {
    @Test func ctrlSIsAKeyAndOutputGoesOn() throws {
        let pair = try PseudoTerminal.open()
        defer { pair.close() }
        // The terminal's side, as a shell has it; O_NONBLOCK so a stopped output cannot hang the test.
        let tty = open(pair.slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK)
        try #require(tty >= 0)
        defer { close(tty) }
        // PseudoTerminal makes both sides raw: give it a shell's modes (stty sane's flags that matter here).
        var before = termios()
        try #require(tcgetattr(tty, &before) == 0)
        before.c_iflag |= tcflag_t(IXON | ICRNL)
        before.c_lflag |= tcflag_t(ICANON | ECHO | ISIG)
        try #require(tcsetattr(tty, TCSANOW, &before) == 0)

        #expect(TerminalKeyMode.enter(tty))
        var during = termios()
        #expect(tcgetattr(tty, &during) == 0)
        #expect(during.c_iflag & tcflag_t(IXON) == 0)
        #expect(during.c_lflag & tcflag_t(ICANON | ECHO) == 0)

        // A person presses Ctrl-S, then the view writes: the master (the window) still gets it.
        try [UInt8(0x13)].withUnsafeBytes { try pair.master.write($0) }
        var ctrlS: UInt8 = 0
        var waiting = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
        #expect(poll(&waiting, 1, 20_000) == 1 && read(tty, &ctrlS, 1) == 1 && ctrlS == 0x13, "Ctrl-S reaches the keys")
        #expect(write(tty, "view", 4) == 4)
        var shown = [UInt8](repeating: 0, count: 16)
        var window = pollfd(fd: pair.master.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&window, 1, 20_000) == 1, "the output was not stopped")
        let count = try shown.withUnsafeMutableBytes { try pair.master.read(into: $0) }
        #expect(String(decoding: shown.prefix(count), as: UTF8.self) == "view")

        TerminalKeyMode.restore()
        var after = termios()
        #expect(tcgetattr(tty, &after) == 0)
        #expect(after.c_iflag & tcflag_t(IXON) != 0 && after.c_lflag & tcflag_t(ICANON) != 0, "the terminal's modes are back")
    }
}
