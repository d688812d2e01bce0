import Foundation
@testable import SerialIO
import Testing

/// A pseudo-terminal that is someone's terminal (a session's controlling tty)
/// is never opened: an emulator's old pty number goes to the next terminal
/// window, and opening it set that terminal raw and read its keystrokes.
@Suite struct TerminalSessionTests {
    @Test func aPtyThatIsASessionsTerminalIsRefusedAndOneThatIsNotOpens() throws {
        let pair = try PseudoTerminal.open()
        defer { pair.close() }
        #expect(TerminalSessions.member(of: pair.slavePath) == nil, "an emulator's pty is nobody's terminal")
        try SerialPort.open(path: pair.slavePath).close()

        // A session whose controlling terminal is the pty, as a shell in a terminal window has.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        shell.arguments = ["--wait", "--ctty", "sleep", "60"]
        shell.standardInput = try #require(FileHandle(forReadingAtPath: pair.slavePath))
        try shell.run()
        defer { shell.terminate(); shell.waitUntilExit() }
        // Wait for the kernel to say so (setsid forks, then takes the tty), up to 20 s.
        let deadline = ContinuousClock.now + .seconds(20)
        var member = TerminalSessions.member(of: pair.slavePath)
        while member == nil && ContinuousClock.now < deadline { member = TerminalSessions.member(of: pair.slavePath) }
        let found = try #require(member, "the session's process in /proc")
        defer { kill(found.pid, SIGKILL) }  // setsid forked it: its own child
        #expect(["setsid", "sleep"].contains(found.command), "\(found)")
        do {
            try SerialPort.open(path: pair.slavePath).close()
            Issue.record("someone's terminal was opened")
        } catch {
            guard case .someonesTerminal(let port, _) = error else { Issue.record("\(error)"); return }
            #expect(port == pair.slavePath)
            #expect(error.message.contains("a terminal in use ("), "\(error.message)")
            #expect(error.message.hasSuffix("give the one tiltsim printed (tiltsim --link PATH keeps one name)"))
        }
    }

    /// tty_nr as /proc/PID/stat gives it, counted from the command's last ')'.
    @Test func theControllingTerminalIsReadFromTheStatLine() {
        let line = "4242 (a) b (c)) S 1 4242 4242 34820 4242 4194560 0 0 0 0"
        #expect(TerminalSessions.controllingTerminal(statLine: line) == 34820)
        #expect(TerminalSessions.controllingTerminal(statLine: "4242 (x) S 1 2 3") == nil)
        #expect(TerminalSessions.controllingTerminal(statLine: "garbage") == nil)
        // /dev/pts/4 (136, 4) and /dev/pts/300 (137, 44): the kernel's new_encode_dev.
        #expect(TerminalSessions.ttyNumber(makedev(136, 4)) == 136 << 8 | 4)
        #expect(TerminalSessions.ttyNumber(makedev(137, 44)) == 137 << 8 | 44)
        #expect(TerminalSessions.ttyNumber(makedev(4, 300)) == 4 << 8 | 300 & 0xFF | (300 & ~0xFF) << 12)
    }

    /// glibc's makedev (a macro Swift does not import).
    func makedev(_ major: UInt64, _ minor: UInt64) -> dev_t {
        dev_t((minor & 0xFF) | (major & 0xFFF) << 8 | (minor & ~0xFF) << 12 | (major & ~0xFFF) << 32)
    }
}
