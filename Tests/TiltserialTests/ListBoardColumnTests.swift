import SerialIO
import Testing
@testable import TiltserialCommand

/// `tiltserial list`'s BOARD column names what the USB ids say (the ids typed
/// in from the Arduino AVR core's boards.txt and the bridges' makers, not read
/// back from the table).
@Suite struct ListBoardColumnTests {
    static func usb(_ vid: UInt16, _ pid: UInt16) -> PortInfo {
        PortInfo(path: "/dev/ttyACM0", transport: .usb, usbVendorID: vid, usbProductID: pid)
    }

    @Test func theBoardColumnNamesBoardsBridgesAndBootloaders() {
        #expect(List.board(Self.usb(0x2341, 0x8036)) == "Leonardo (native USB)")
        #expect(List.board(Self.usb(0x2341, 0x0036)) == "Leonardo bootloader")
        #expect(List.board(Self.usb(0x1B4F, 0x9206)) == "Pro Micro (native USB)")
        #expect(List.board(Self.usb(0x2341, 0x0043)) == "Uno")
        #expect(List.board(Self.usb(0x1A86, 0x7523)) == "CH340 USB-serial bridge")
        #expect(List.board(Self.usb(0x2341, 0x7777)) == "board?", "Arduino's vendor id, a product we do not list")
        #expect(List.board(Self.usb(0x12D1, 0x1001)) == "-", "a modem")
        #expect(List.board(PortInfo(path: "/dev/pts/3")) == "-", "a pty")
    }
}
