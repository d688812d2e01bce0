/// What a USB id pair says about the board behind a port: its name and how its
/// serial port behaves when opened (docs/serial.md "Boards by USB id").
public struct USBBoard: Sendable, Equatable {
    /// How the port behaves when a host opens it.
    public enum Kind: Sendable, Equatable {
        /// A USB-serial bridge (an Uno's 16U2, CH340, CP210x, FTDI): asserting
        /// DTR on open resets the AVR, whose bootloader runs 0.5-2 s first.
        case resetsOnOpen
        /// The AVR talks USB itself (ATmega32U4): opening does not reset it,
        /// the baud rate is ignored, it sends nothing until DTR is asserted,
        /// and a 1200-baud open then close drops it into its bootloader.
        case nativeUSB
        /// A native-USB board's bootloader (Caterina): it runs about 8 s after
        /// a reset or a 1200-baud touch, then the sketch comes back under the
        /// board's own id (and often another ttyACM number).
        case bootloader(of: String)
    }

    /// The USB vendor id (idVendor).
    public let vendorID: UInt16
    /// The USB product id (idProduct).
    public let productID: UInt16
    /// A name for people: "Leonardo", "CH340 USB-serial bridge".
    public let name: String
    /// How its port behaves when opened.
    public let kind: Kind

    /// A table row.
    public init(_ vendorID: UInt16, _ productID: UInt16, _ name: String, _ kind: Kind) {
        self.vendorID = vendorID
        self.productID = productID
        self.name = name
        self.kind = kind
    }

    /// True for a board whose port opens without a reset (`.nativeUSB`).
    public var isNativeUSB: Bool { kind == .nativeUSB }

    /// The row for `vendorID:productID`, nil when the pair is not in `known`.
    public static func lookup(vendorID: UInt16, productID: UInt16) -> USBBoard? {
        known.first { $0.vendorID == vendorID && $0.productID == productID }
    }

    /// The row for a listed port (nil: not USB, ids unknown, or not in `known`).
    public static func lookup(_ port: PortInfo) -> USBBoard? {
        guard port.transport == .usb, let vid = port.usbVendorID, let pid = port.usbProductID else { return nil }
        return lookup(vendorID: vid, productID: pid)
    }

    /// Boards and bridges by USB id: the ATmega32U4 boards of the Arduino AVR
    /// core's boards.txt (and SparkFun's Pro Micro board package) with their
    /// Caterina bootloaders' ids, and the 16U2 and bridge ids whose boards reset on open.
    public static let known: [USBBoard] =
        // ATmega32U4 boards, as the Arduino AVR core's boards.txt lists them.
        nativeUSB("Leonardo", [0x2341, 0x2A03], 0x8036)
        + nativeUSB("Leonardo ETH", [0x2A03], 0x8040)
        + nativeUSB("Micro", [0x2341, 0x2A03], 0x8037) + nativeUSB("Micro", [0x2341], 0x8237)
        + nativeUSB("Esplora", [0x2341, 0x2A03], 0x803C)
        + nativeUSB("Robot Control", [0x2341, 0x2A03], 0x8038)
        + nativeUSB("Robot Motor", [0x2341, 0x2A03], 0x8039)
        + nativeUSB("Yún", [0x2341, 0x2A03], 0x8041)
        // SparkFun's board package (5 V and 3.3 V Pro Micro), Adafruit's Feather 32u4.
        + nativeUSB("Pro Micro", [0x1B4F], 0x9206, bootloader: 0x9205)
        + nativeUSB("Pro Micro 3.3 V", [0x1B4F], 0x9204, bootloader: 0x9203)
        + nativeUSB("Feather 32u4", [0x239A], 0x800C) + [
        // Boards with a USB-serial chip in front of the AVR: they reset on open.
        USBBoard(0x2341, 0x0043, "Uno", .resetsOnOpen),
        USBBoard(0x2341, 0x0001, "Uno", .resetsOnOpen),
        USBBoard(0x2A03, 0x0043, "Uno", .resetsOnOpen),
        USBBoard(0x2341, 0x0243, "Uno", .resetsOnOpen),
        USBBoard(0x2341, 0x0010, "Mega 2560", .resetsOnOpen),
        USBBoard(0x2341, 0x0042, "Mega 2560", .resetsOnOpen),
        USBBoard(0x2A03, 0x0010, "Mega 2560", .resetsOnOpen),
        USBBoard(0x2A03, 0x0042, "Mega 2560", .resetsOnOpen),
        USBBoard(0x1A86, 0x7523, "CH340 USB-serial bridge", .resetsOnOpen),
        USBBoard(0x1A86, 0x5523, "CH341 USB-serial bridge", .resetsOnOpen),
        USBBoard(0x10C4, 0xEA60, "CP210x USB-serial bridge", .resetsOnOpen),
        USBBoard(0x0403, 0x6001, "FTDI FT232R USB-serial bridge", .resetsOnOpen),
        USBBoard(0x0403, 0x6015, "FTDI FT231X USB-serial bridge", .resetsOnOpen),
        ]

    /// A 32U4 board's sketch id on each vendor id, with its Caterina
    /// bootloader's id (by default the sketch's with bit 15 clear, Arduino's rule).
    static func nativeUSB(_ name: String, _ vendors: [UInt16], _ sketch: UInt16, bootloader: UInt16? = nil) -> [USBBoard] {
        vendors.flatMap { vid in
            [USBBoard(vid, sketch, name, .nativeUSB),
             USBBoard(vid, bootloader ?? sketch & 0x7FFF, name + " bootloader", .bootloader(of: name))]
        }
    }
}
