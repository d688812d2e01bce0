import SerialIO
import Testing

/// Ids as the Arduino AVR core's boards.txt (1.8.x) and SparkFun's board
/// package list them, typed in here, not read from the table under test.
@Suite("USB board ids")
struct USBBoardTests {
    @Test(arguments: [
        (UInt16(0x2341), UInt16(0x8036), "Leonardo"), (0x2A03, 0x8036, "Leonardo"),
        (0x2341, 0x8037, "Micro"), (0x2A03, 0x8037, "Micro"),
        (0x1B4F, 0x9206, "Pro Micro"), (0x2341, 0x8041, "Yún"), (0x2341, 0x803C, "Esplora"),
    ])
    func the32U4BoardsAreNativeUSB(vid: UInt16, pid: UInt16, name: String) throws {
        let board = try #require(USBBoard.lookup(vendorID: vid, productID: pid))
        #expect(board.name == name)
        #expect(board.kind == .nativeUSB)
        #expect(board.isNativeUSB)
    }

    @Test(arguments: [
        (UInt16(0x2341), UInt16(0x0036), "Leonardo"), (0x2A03, 0x0036, "Leonardo"),
        (0x2341, 0x0037, "Micro"), (0x1B4F, 0x9205, "Pro Micro"), (0x2341, 0x0041, "Yún"),
    ])
    func theirBootloadersAreMarkedAsBootloaders(vid: UInt16, pid: UInt16, of board: String) throws {
        let found = try #require(USBBoard.lookup(vendorID: vid, productID: pid))
        #expect(found.kind == .bootloader(of: board))
        #expect(!found.isNativeUSB)
    }

    @Test(arguments: [
        (UInt16(0x2341), UInt16(0x0043)), (0x2341, 0x0001), (0x2A03, 0x0043), (0x2341, 0x0042),
        (0x1A86, 0x7523), (0x1A86, 0x5523), (0x10C4, 0xEA60), (0x0403, 0x6001),
    ])
    func boardsBehindABridgeResetOnOpen(vid: UInt16, pid: UInt16) throws {
        #expect(try #require(USBBoard.lookup(vendorID: vid, productID: pid)).kind == .resetsOnOpen)
    }

    @Test func aPortIsLookedUpOnlyWhenItIsUSB() {
        let leonardo = PortInfo(path: "/dev/ttyACM0", transport: .usb, usbVendorID: 0x2341, usbProductID: 0x8036)
        #expect(USBBoard.lookup(leonardo)?.name == "Leonardo")
        #expect(USBBoard.lookup(PortInfo(path: "/dev/ttyS0", transport: .native, usbVendorID: 0x2341, usbProductID: 0x8036)) == nil)
        #expect(USBBoard.lookup(PortInfo(path: "/dev/ttyUSB1", transport: .usb, usbVendorID: 0x12D1, usbProductID: 0x1001)) == nil)
        #expect(USBBoard.lookup(vendorID: 0x2341, productID: 0xFFFF) == nil)
    }

    @Test func everyIdPairAppearsOnce() {
        var seen = Set<UInt32>()
        for board in USBBoard.known {
            #expect(seen.insert(UInt32(board.vendorID) << 16 | UInt32(board.productID)).inserted, "\(board)")
        }
    }
}
