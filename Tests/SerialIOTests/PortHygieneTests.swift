import Foundation
import SerialIO
import Testing

/// Bytes the board sent before the port was opened are not decoded; reads go
/// on until the transport would block; the host can see who else has the port.
@Suite("Port hygiene")
struct PortHygieneTests {
    /// Waits (poll, no sleep) until bytes the master wrote have reached the
    /// slave's input queue, through a throwaway descriptor that reads nothing.
    static func waitUntilQueued(_ slavePath: String) throws {
        let fd = Glibc.open(slavePath, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { Glibc.close(fd) }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        try #require(poll(&p, 1, 10_000) == 1)
    }

    enum Opener: String, CaseIterable { case termios, libserialport }

    static func open(_ opener: Opener, _ fixture: PtyFixture) throws -> any SerialTransport {
        switch opener {
        case .termios: try SerialPort.open(path: fixture.link)
        case .libserialport: try fixture.openWithLibSerialPort()
        }
    }

    @Test(arguments: Opener.allCases)
    func bytesSentBeforeTheOpenAreDiscarded(opener: Opener) throws {
        let fixture = try PtyFixture()
        defer { fixture.close() }
        try write(fixture.pty.master, Array("stale text from before the open\r\n".utf8))
        try Self.waitUntilQueued(fixture.pty.slavePath)
        let port = try Self.open(opener, fixture)
        defer { port.close() }
        let fresh = testBytes(64)
        try write(fixture.pty.master, fresh)
        #expect(try readExactly(port, count: fresh.count) == fresh)
    }

    @Test(arguments: Opener.allCases)
    func readingGoesOnUntilTheTransportWouldBlock(opener: Opener) throws {
        let fixture = try PtyFixture()
        defer { fixture.close() }
        let port = try Self.open(opener, fixture)
        defer { port.close() }
        // More than one pty read can return (4095 bytes), less than the kernel buffers.
        // Whether more is waiting right after a short read depends on the
        // kernel's worker that moves the pty's buffer on, which a loaded
        // machine delays: a few rounds, until one shows it (one did not, once).
        var shortReadsFollowedByMore = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<8 where shortReadsFollowedByMore == 0 {
            let sent = testBytes(3 * 4096)
            try write(fixture.pty.master, sent)
            var received: [UInt8] = []
            while received.count < sent.count {
                guard try port.waitReadable(timeout: .seconds(10)) else { break }
                var lastWasShort = false
                while true {
                    let n = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
                    if n == 0 { break }  // would block: wait again
                    if lastWasShort { shortReadsFollowedByMore += 1 }
                    lastWasShort = n < buffer.count
                    received += buffer[..<n]
                }
            }
            #expect(received == sent)
        }
        #expect(shortReadsFollowedByMore > 0, "a read shorter than the buffer is not the end of what is waiting")
    }
}

@Suite("Other openers")
struct OtherOpenersTests {
    /// Blocks (bounded by poll) until the child printed its first line.
    static func waitForLine(_ pipe: Pipe) throws -> String {
        var p = pollfd(fd: pipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        try #require(poll(&p, 1, 30_000) == 1)
        return String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
    }

    /// Runs `executable arguments` with a pipe as stdin; the child runs until
    /// that pipe is closed (no signals needed to stop it).
    static func start(_ executable: String, _ arguments: [String]) throws -> (process: Process, input: Pipe, output: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        return (process, input, output)
    }

    static func stop(_ child: (process: Process, input: Pipe, output: Pipe)) {
        try? child.input.fileHandleForWriting.close()  // EOF on stdin: `read` ends, the child exits
        child.process.waitUntilExit()
    }

    @Test func findsAnotherProcessHoldingThePortByDeviceNumber() throws {
        let fixture = try PtyFixture()  // also keeps a slave descriptor in this process
        defer { fixture.close() }
        let reader = try Self.start("/bin/sh", ["-c", "exec 3<\"$0\"; echo running; read line", fixture.pty.slavePath])
        defer { Self.stop(reader) }
        #expect(try Self.waitForLine(reader.output) == "running\n")
        // Through the symlink: the scan compares device numbers, not path strings.
        let others = DeviceOpeners.others(of: fixture.link)
        #expect(others.contains(DeviceOpener(pid: reader.process.processIdentifier, command: "sh")), "\(others)")
        #expect(!others.contains { $0.pid == getpid() }, "our own descriptors are not 'others'")
        #expect(DeviceOpeners.others(of: "/nonexistent/tty").isEmpty)
    }

    /// An emulated board holds its pty's master and keeps the slave open so the
    /// link never hangs up: it is the board side, not a reader stealing bytes.
    /// A second process that opens the same slave is one.
    @Test func theProcessHoldingThePtysMasterIsNotAnotherReader() throws {
        let board = try Self.start("/usr/bin/python3", ["-c",
            "import os, pty, sys; m, s = pty.openpty(); print(os.ttyname(s), flush=True); sys.stdin.readline()"])
        defer { Self.stop(board) }
        let slave = try Self.waitForLine(board.output).trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(slave.hasPrefix("/dev/pts/"))
        #expect(DeviceOpeners.others(of: slave).isEmpty, "\(DeviceOpeners.others(of: slave))")

        let reader = try Self.start("/bin/sh", ["-c", "exec 3<\"$0\"; echo running; read line", slave])
        defer { Self.stop(reader) }
        #expect(try Self.waitForLine(reader.output) == "running\n")
        #expect(DeviceOpeners.others(of: slave) == [DeviceOpener(pid: reader.process.processIdentifier, command: "sh")])
    }

    @Test func busyNamesTheProcessHoldingTheLock() throws {
        let fixture = try PtyFixture()  // this process holds the slave too, without a lock
        defer { fixture.close() }
        // flock(1) takes the lock and keeps it while its command waits on stdin.
        let locker = try Self.start("/usr/bin/flock", ["--nonblock", "--close", fixture.pty.slavePath, "sh", "-c", "echo locked; read line"])
        defer { Self.stop(locker) }
        #expect(try Self.waitForLine(locker.output) == "locked\n")
        do {
            let port = try SerialPort.open(path: fixture.link)
            port.close()
            Issue.record("the open succeeded although flock holds the lock")
        } catch {
            guard case .portBusy(_, let holder) = error else { Issue.record("unexpected \(error)"); return }
            let pid = locker.process.processIdentifier
            #expect(holder == DeviceOpener(pid: pid, command: "flock"), "\(String(describing: holder))")
            #expect(error.message == "\(fixture.link): port busy, open in another program (flock, pid \(pid)): quit it or pick another port")
        }
    }
}
