/// What is known about one serial port (from libserialport and /dev/serial/by-id).
public struct PortInfo: Sendable, Equatable {
    /// How the port is attached (libserialport's `sp_transport`: SP_TRANSPORT_NATIVE, _USB, _BLUETOOTH).
    public enum Transport: Sendable, Equatable {
        /// An on-board UART or anything not USB/Bluetooth; a USB serial bridge; a Bluetooth RFCOMM port.
        case native, usb, bluetooth
    }

    /// Device path, e.g. /dev/ttyUSB0.
    public var path: String
    /// The stable /dev/serial/by-id/... link pointing at `path`, when udev made one.
    public var byIdPath: String?
    /// How the port is attached; `.native` when libserialport cannot tell.
    public var transport: Transport
    /// libserialport's description (the USB product string, or the device name).
    public var description: String?
    /// The USB vendor id (idVendor, e.g. 0x2341 Arduino, 0x1A86 WCH CH340); nil if not USB.
    public var usbVendorID: UInt16?
    /// The USB product id (idProduct); nil if not USB.
    public var usbProductID: UInt16?
    /// The USB manufacturer string (iManufacturer); nil if not USB or absent.
    public var manufacturer: String?
    /// The USB product string (iProduct); nil if not USB or absent.
    public var product: String?
    /// The USB serial number string (iSerial); nil if not USB or absent (most CH340 clones).
    public var serialNumber: String?

    /// A port description; everything but the path is optional (tests build them by hand).
    public init(
        path: String, byIdPath: String? = nil, transport: Transport = .native, description: String? = nil,
        usbVendorID: UInt16? = nil, usbProductID: UInt16? = nil,
        manufacturer: String? = nil, product: String? = nil, serialNumber: String? = nil
    ) {
        self.path = path
        self.byIdPath = byIdPath
        self.transport = transport
        self.description = description
        self.usbVendorID = usbVendorID
        self.usbProductID = usbProductID
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
    }

    /// The name to show and to suggest: the by-id link (stable across replugging) if present.
    public var preferredName: String { byIdPath ?? path }

    /// The maker of the USB bridge, when its vendor id is one Arduino-class boards use.
    public var knownBoardVendor: String? {
        guard transport == .usb, let vid = usbVendorID else { return nil }
        return PortInfo.boardVendors[vid]
    }

    /// USB vendor ids found on Arduino boards and their clones' USB-serial bridges.
    public static let boardVendors: [UInt16: String] = [
        0x2341: "Arduino",
        0x2A03: "Arduino (arduino.org)",
        0x1B4F: "SparkFun",
        0x239A: "Adafruit",
        0x0403: "FTDI",
        0x1A86: "QinHeng CH340/CH341",
        0x10C4: "Silicon Labs CP210x",
        0x067B: "Prolific PL2303",
        0x2E8A: "Raspberry Pi",
        0x303A: "Espressif",
    ]
}
