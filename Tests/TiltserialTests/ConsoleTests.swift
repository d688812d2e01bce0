import Foundation
import SerialIO
import Testing
@testable import TiltserialCommand

@Suite struct ConsoleTests {
    /// `tiltserial --json | head`: once the reader is gone, the write fails
    /// with EPIPE (SIGPIPE ignored, as `main` does) and the command is told to stop.
    @Test func aClosedStdoutWakesTheStopPipe() throws {
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[1]) }
        let stop = try WakeUpPipe()
        let console = Console.descriptors(out: fds[1], err: fds[1], errIsTerminal: false, onOutClosed: { stop.wake() })

        console.writeOut("{\"t_us\":0}\n")
        var pollfd = Glibc.pollfd(fd: stop.readEnd.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pollfd, 1, 0) == 0, "not woken while the reader is there")

        close(fds[0])
        console.writeOut("{\"t_us\":30000}\n")
        #expect(poll(&pollfd, 1, 1000) == 1, "woken once the reader is gone")
    }
}
