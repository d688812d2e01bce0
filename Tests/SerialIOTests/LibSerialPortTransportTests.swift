import CPtyInterposer
import Foundation
import SerialIO
import Testing

/// libserialport's real data path, driven over a pty: the interposed ioctl fakes the
/// modem-line calls ptys refuse, and `libserialportName(forLink:)` satisfies its
/// /sys/class/tty lookup.
@Suite("libserialport transport over a pty")
struct LibSerialPortTransportTests {
    @Test func interposerTakesEffectAndRoundTripsBothWays() throws {
        let fixture = try PtyFixture()
        defer { fixture.close() }
        let before = cpty_faked_modem_ioctls()
        let host = try fixture.openWithLibSerialPort()
        defer { host.close() }
        #expect(cpty_faked_modem_ioctls() > before, "libserialport's ioctl calls did not reach the interposer")
        #expect(host.name == fixture.link)

        let toBoard = testBytes(500, seed: 11)
        try write(host, toBoard)
        #expect(try readExactly(fixture.pty.master, count: toBoard.count) == toBoard)

        let toHost = testBytes(500, seed: 12)
        try write(fixture.pty.master, toHost)
        #expect(try readExactly(host, count: toHost.count) == toHost)
    }

    @Test func largeWriteArrivesExactly() throws {
        let fixture = try PtyFixture()
        defer { fixture.close() }
        let host = try fixture.openWithLibSerialPort()
        defer { host.close() }
        let payload = testBytes(256 * 1024, seed: 13)
        let master = fixture.pty.master
        let received = onThread { try readExactly(master, count: payload.count) }
        try write(host, payload)
        #expect(try received() == payload)
    }

    @Test func deviceGoneWhenMasterClosesWithoutSpinning() throws {
        let fixture = try PtyFixture()
        defer { fixture.close() }
        let host = try fixture.openWithLibSerialPort()
        defer { host.close() }
        try write(fixture.pty.master, [1, 2, 3])
        #expect(try readExactly(host, count: 3) == [1, 2, 3])
        fixture.pty.close()
        // sp_nonblocking_read returns 0 at EOF, exactly like "no data": the transport must still say gone.
        try expectGoneWithinTwoRounds(host)
    }

    @Test func secondExclusiveOpenIsBusy() throws {
        let fixture = try PtyFixture()
        defer { fixture.close() }
        let first = try fixture.openWithLibSerialPort()
        defer { first.close() }
        expectBusy(try fixture.openWithLibSerialPort(), port: fixture.link)
        // The termios path respects the same lock.
        expectBusy(try SerialPort.open(path: fixture.link), port: fixture.link)
    }

    @Test func dtrLeaveClearsHangUpOnClose() throws {
        let fixture = try PtyFixture()
        defer { fixture.close() }
        for (dtr, expectHUPCL) in [(SerialOptions.DTR.assert, true), (.leave, false)] {
            let host = try fixture.openWithLibSerialPort(options: SerialOptions(dtr: dtr))
            var t = termios()
            #expect(tcgetattr(host.fileDescriptor.rawValue, &t) == 0)
            #expect((t.c_cflag & tcflag_t(HUPCL) != 0) == expectHUPCL)
            #expect(withUnsafeBytes(of: t.c_cc) { [$0[Int(VMIN)], $0[Int(VTIME)]] } == [0, 0])
            host.close()
        }
    }

    @Test func plainPtyNameIsRefusedByLibSerialPort() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        #expect(throws: SerialError.notASerialDevice(port: pty.slavePath)) {
            _ = try SerialPort.open(path: pty.slavePath, options: SerialOptions(backend: .libserialport))
        }
    }
}
