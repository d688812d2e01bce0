import Foundation
import TestSupport
import Testing

/// The real `tiltserial` started with stdin, stdout and stderr closed
/// (`<&- >&- 2>&-`): its wake-up pipe took 0 and 1 and the port took 2, so
/// its log lines went to the board. Now the closed ones are /dev/null and the
/// board hears only frames.
@Suite struct StandardDescriptorTests {
    @Test func withItsStandardDescriptorsClosedTheHostSendsTheBoardOnlyFrames() throws {
        let link = NSTemporaryDirectory() + "tiltserial-closed-fds-" + UUID().uuidString
        let board = try PtyPeer(boardAt: link, keepText: true)
        defer { board.close() }
        let host = Process()
        host.executableURL = URL(fileURLWithPath: "/bin/sh")
        host.arguments = ["-c", #"exec "$0" "$1" <&- >&- 2>&-"#, TerminalViewTests.tiltserial, link]
        try host.run()
        defer { host.terminate(); host.waitUntilExit() }
        #expect(try board.read { $0.hostHellos >= 1 }, "HOST_HELLO: \(board.text.debugDescription)")
        #expect(!board.text.contains("tiltserial"), "log text on the port: \(board.text.debugDescription)")
        #expect(host.isRunning, "the run goes on (a log line in its wake-up pipe stopped it)")
    }
}
