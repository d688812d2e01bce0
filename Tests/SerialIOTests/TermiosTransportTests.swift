import Foundation
import SerialIO
import Testing

@Suite("Termios transport over a pty")
struct TermiosTransportTests {
    @Test func roundTripBothWays() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let host = try SerialPort.open(path: pty.slavePath)
        defer { host.close() }
        #expect(host is TermiosTransport)

        let toBoard = testBytes(300, seed: 1)
        try write(host, toBoard)
        #expect(try readExactly(pty.master, count: toBoard.count) == toBoard)

        let toHost = testBytes(300, seed: 2)
        try write(pty.master, toHost)
        #expect(try readExactly(host, count: toHost.count) == toHost)
    }

    @Test func readReturnsZeroWhenNothingIsWaiting() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let host = try SerialPort.open(path: pty.slavePath)
        defer { host.close() }
        var buf = [UInt8](repeating: 0, count: 16)
        #expect(try buf.withUnsafeMutableBytes { try host.read(into: $0) } == 0)
        #expect(try host.waitReadable(timeout: .milliseconds(1)) == false)
    }

    @Test func largeWriteArrivesExactly() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let host = try SerialPort.open(path: pty.slavePath)
        defer { host.close() }
        let payload = testBytes(256 * 1024, seed: 3)  // far beyond the pty buffer (a few KB)
        let master = pty.master
        let received = onThread { try readExactly(master, count: payload.count) }
        try write(host, payload)
        #expect(try received() == payload)
    }

    @Test func deviceGoneWhenMasterClosesWithoutSpinning() throws {
        let pty = try PseudoTerminal.open()
        let host = try SerialPort.open(path: pty.slavePath)
        defer { host.close() }
        try write(pty.master, [1, 2, 3])
        pty.close()
        try expectGoneWithinTwoRounds(host)
    }

    @Test func masterSeesDeviceGoneWhenHostCloses() throws {
        let pty = try PseudoTerminal.open(keepSlaveOpen: false)
        defer { pty.close() }
        let host = try SerialPort.open(path: pty.slavePath)
        try write(host, [7])
        #expect(try readExactly(pty.master, count: 1) == [7])
        host.close()
        try expectGoneWithinTwoRounds(pty.master)
    }

    @Test func writeAfterMasterClosedIsDeviceGone() throws {
        let pty = try PseudoTerminal.open()
        let host = try SerialPort.open(path: pty.slavePath)
        defer { host.close() }
        pty.close()
        #expect(throws: SerialError.deviceGone(port: pty.slavePath)) { try write(host, [1, 2, 3]) }
    }

    @Test func writeWithNobodyReadingTimesOutInsteadOfHanging() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let host = try SerialPort.open(path: pty.slavePath, options: SerialOptions(writeTimeout: .milliseconds(50)))
        defer { host.close() }
        let payload = testBytes(1 << 20)
        do {
            try write(host, payload)
            Issue.record("1 MiB fitted into the pty buffer")
        } catch let error as SerialError {
            guard case .writeTimedOut(_, let written, let total) = error else { Issue.record("\(error)"); return }
            #expect(written > 0 && written < total && total == payload.count)
        }
    }

    @Test func writeWithoutWaitingStopsWhenTheBufferIsFull() throws {
        let pty = try PseudoTerminal.open()  // slave kept open, nobody reading it
        defer { pty.close() }
        // The host opens first: opening flushes what was queued before it (docs/serial.md).
        let host = try SerialPort.open(path: pty.slavePath)
        defer { host.close() }
        let chunk = testBytes(4096)
        var expected: [UInt8] = []
        var sawFull = false
        for _ in 0..<1000 {
            let n = try chunk.withUnsafeBytes { try pty.master.writeWithoutWaiting($0) }
            if n == 0 { sawFull = true; break }
            expected += chunk.prefix(n)
        }
        #expect(sawFull, "4 MB fitted into a pty")
        // What was accepted reaches the host, in order and complete.
        #expect(try readExactly(host, count: expected.count) == expected)
    }

    @Test func unsupportedBaudRateIsRefused() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        #expect(throws: SerialError.unsupportedBaudRate(port: pty.slavePath, baud: 12_345)) {
            _ = try SerialPort.open(path: pty.slavePath, baud: 12_345)
        }
        // The failed open released its lock: a normal open works.
        try SerialPort.open(path: pty.slavePath).close()
    }

    @Test(arguments: [false, true])
    func exclusiveFlagIsSetWhileOpenAndClearedOnClose(viaLibSerialPort: Bool) throws {
        let fixture = try PtyFixture()
        defer { fixture.close() }
        // A non-exclusive observer (root passes TIOCEXCL) reads the flag with TIOCGEXCL.
        let observer = try SerialPort.open(path: fixture.link, options: SerialOptions(exclusive: false))
        defer { observer.close() }
        func isExclusive() -> Bool {
            var flag: CInt = -1
            #expect(ioctl(observer.fileDescriptor.rawValue, 0x8004_5440 /* TIOCGEXCL */, &flag) == 0)
            return flag != 0
        }
        #expect(!isExclusive())
        let host: any SerialTransport = viaLibSerialPort
            ? try fixture.openWithLibSerialPort() : try SerialPort.open(path: fixture.link)
        #expect(isExclusive())
        host.close()
        #expect(!isExclusive())
    }

    @Test func operationsAfterCloseAreDeviceGone() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let host = try SerialPort.open(path: pty.slavePath)
        host.close()
        host.close()
        #expect(!host.isOpen)
        #expect(throws: SerialError.deviceGone(port: pty.slavePath)) { try host.wait(timeout: nil, orWakeUp: nil) }
        var buf = [UInt8](repeating: 0, count: 4)
        #expect(throws: SerialError.deviceGone(port: pty.slavePath)) {
            try buf.withUnsafeMutableBytes { try host.read(into: $0) }
        }
    }

    @Test func wakeUpPipeInterruptsWait() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let host = try SerialPort.open(path: pty.slavePath)
        defer { host.close() }
        let wake = try WakeUpPipe()
        #expect(try host.wait(timeout: .milliseconds(1), orWakeUp: wake.readEnd) == .timedOut)
        let waiter = onThread { try host.wait(timeout: nil, orWakeUp: wake.readEnd) }
        wake.wake()
        #expect(try waiter() == .wokenUp)
        wake.reset()
        try write(pty.master, [42])
        #expect(try host.wait(timeout: .seconds(5), orWakeUp: wake.readEnd) == .readable)
    }

    @Test func openedRawAndWithRequestedDTRPolicy() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        for (dtr, expectHUPCL) in [(SerialOptions.DTR.assert, true), (.leave, false)] {
            let host = try SerialPort.open(path: pty.slavePath, options: SerialOptions(dtr: dtr))
            var t = termios()
            #expect(tcgetattr(host.fileDescriptor.rawValue, &t) == 0)
            #expect((t.c_cflag & tcflag_t(HUPCL) != 0) == expectHUPCL)
            #expect(t.c_lflag & tcflag_t(ICANON | ECHO) == 0)
            #expect(cfgetospeed(&t) == speed_t(B115200))
            try host.setDTR(false)  // no modem lines on a pty: accepted as a no-op
            host.close()
        }
    }

    @Test func byIdStyleLinkOpensAndKeepsItsName() throws {
        let fixture = try PtyFixture()
        defer { fixture.close() }
        let host = try SerialPort.open(path: fixture.link)
        defer { host.close() }
        #expect(host.name == fixture.link)
        #expect(host is TermiosTransport)
        expectBusy(try SerialPort.open(path: fixture.link), port: fixture.link)
    }
}

/// Polls and reads like a host loop would; the transport must throw `.deviceGone`
/// within two rounds (a spinning implementation would keep returning 0 and fail here).
func expectGoneWithinTwoRounds(_ t: any SerialTransport) throws {
    var buf = [UInt8](repeating: 0, count: 64)
    var rounds = 0
    do {
        while rounds < 1000 {
            rounds += 1
            if try t.waitReadable(timeout: .seconds(5)) {
                while try buf.withUnsafeMutableBytes({ try t.read(into: $0) }) > 0 {}
            }
        }
        Issue.record("no deviceGone after \(rounds) rounds")
    } catch let error as SerialError {
        guard case .deviceGone = error else { Issue.record("unexpected \(error)"); return }
        #expect(rounds <= 2)
    }
}

/// A second exclusive open must fail as busy, naming this process as the holder.
func expectBusy(_ open: @autoclosure () throws(SerialError) -> any SerialTransport, port: String) {
    do {
        let second = try open()
        second.close()
        Issue.record("second open of \(port) succeeded")
    } catch {
        guard case .portBusy(let name, let holder) = error else { Issue.record("unexpected \(error)"); return }
        #expect(name == port)
        #expect(holder?.pid == getpid())
        #expect(holder?.isThisProcess == true)
        #expect(error.message.contains("busy, already open in this program"), "\(error.message)")
    }
}
