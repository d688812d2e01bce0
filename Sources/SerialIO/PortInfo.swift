/// What is known about one serial port (from libserialport and /dev/serial/by-id).
public struct PortInfo: Sendable, Equatable {
    public enum Transport: Sendable, Equatable {
        case native, usb, bluetooth
    }

    /// Device path, e.g. /dev/ttyUSB0.
    public var path: String
    /// The stable /dev/serial/by-id/... link pointing at `path`, when udev made one.
    public var byIdPath: String?
    public var transport: Transport
    /// libserialport's description (the USB product string, or the device name).
    public var description: String?
    public var usbVendorID: UInt16?
    public var usbProductID: UInt16?
    public var manufacturer: String?
    public var product: String?
    public var serialNumber: String?

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
