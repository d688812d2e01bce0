import Foundation
import SerialIO
import Testing

/// Is a reopened path still the board? Only a USB serial number proves it; a
/// link that now resolves to another tty never passes for the old device.
@Suite("Port identity")
struct PortIdentityTests {
    @Test func aDanglingLinkIsReportedAsSuch() throws {
        let dir = try makeTempDir()
        defer { removeTree(dir) }
        let link = dir + "/tiltsim-board"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/pts/9999")
        #expect(throws: SerialError.danglingLink(port: link, target: "/dev/pts/9999")) { _ = try PortPath.resolve(link) }
        #expect(throws: SerialError.danglingLink(port: link, target: "/dev/pts/9999")) { _ = try PortIdentity.current(path: link) }
        let message = SerialError.danglingLink(port: link, target: "/dev/pts/9999").message
        #expect(message.contains("/dev/pts/9999") && message.contains("link"))
    }

    @Test func aPseudoTerminalIsKnownByItsPathAndDeviceNumberButNeverProven() throws {
        let fixture = try PtyFixture()
        defer { fixture.close() }
        let first = try PortIdentity.current(path: fixture.link)
        #expect(first.resolvedPath == fixture.pty.slavePath)
        #expect(first.usb == nil)
        var st = stat()
        #expect(stat(fixture.pty.slavePath, &st) == 0)
        #expect(first.device == UInt64(st.st_rdev))
        // The same path and number again: a pty number is reused by unrelated
        // terminals, so this is not proof; the board must show itself with a frame.
        #expect(first.compare(with: try PortIdentity.current(path: fixture.link)) == .unproven)
    }

    @Test func aLinkThatNowResolvesToAnotherTTYIsADifferentDevice() throws {
        let board = try PtyFixture()
        defer { board.close() }
        let before = try PortIdentity.current(path: board.link)
        let unrelated = try PseudoTerminal.open()
        defer { unrelated.close() }
        #expect(unlink(board.link) == 0)
        try FileManager.default.createSymbolicLink(atPath: board.link, withDestinationPath: unrelated.slavePath)
        let after = try PortIdentity.current(path: board.link)
        #expect(before.compare(with: after) == .different)
        #expect(!before.compare(with: after).allowsWritingBeforeAFrame)
    }

    static func usb(serial: String?, vid: UInt16 = 0x2341, pid: UInt16 = 0x0043, path: String = "/dev/ttyACM0") -> PortIdentity {
        PortIdentity(resolvedPath: path, device: 0xA600, usb: PortIdentity.USB(
            vendorID: vid, productID: pid, serialNumber: serial, byIdPath: "/dev/serial/by-id/usb-Arduino-if00"))
    }

    @Test func usbDevicesAreTheSameOnlyWithTheSameSerialNumber() {
        let board = Self.usb(serial: "8573531303035171D0A1")
        // Replugged: another ttyACM number, same board.
        #expect(board.compare(with: Self.usb(serial: "8573531303035171D0A1", path: "/dev/ttyACM1")) == .same)
        #expect(board.compare(with: Self.usb(serial: "8573531303035171D0A1")).allowsWritingBeforeAFrame)
        #expect(board.compare(with: Self.usb(serial: "OTHER")) == .different)
        #expect(board.compare(with: Self.usb(serial: "8573531303035171D0A1", vid: 0x1A86)) == .different)
        #expect(board.compare(with: PortIdentity(resolvedPath: "/dev/ttyACM0", device: 0xA600, usb: nil)) == .different)
        // Clone boards (CH340) have no serial number: the same VID:PID proves nothing.
        let clone = Self.usb(serial: nil, vid: 0x1A86, pid: 0x7523, path: "/dev/ttyUSB0")
        #expect(clone.compare(with: Self.usb(serial: nil, vid: 0x1A86, pid: 0x7523, path: "/dev/ttyUSB0")) == .unproven)
    }
}
