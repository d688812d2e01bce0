#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which device a port name leads to, to tell after an unplug whether a
/// reopened name is still the same board.
///
/// The rule it serves: after an unplug, write nothing to a device until it has
/// shown it is the board, by a valid frame or, for USB, by the same serial
/// number (`Match.allowsWritingBeforeAFrame`). A `--link` or by-id symlink that
/// later resolves to an unrelated tty must never be written to first.
public struct PortIdentity: Sendable, Equatable {
    /// What USB says about the device (libserialport's sysfs lookup).
    public struct USB: Sendable, Equatable {
        /// The USB vendor id (idVendor), e.g. 0x2341 for Arduino; nil if sysfs does not say.
        public var vendorID: UInt16?
        /// The USB product id (idProduct); nil if sysfs does not say.
        public var productID: UInt16?
        /// The USB serial number (iSerial); genuine Arduinos and FTDI have one,
        /// most CH340 clones do not.
        public var serialNumber: String?
        /// The /dev/serial/by-id link udev made for it, if any.
        public var byIdPath: String?

        /// USB facts as read; any of them nil when unknown.
        public init(vendorID: UInt16?, productID: UInt16?, serialNumber: String?, byIdPath: String?) {
            self.vendorID = vendorID
            self.productID = productID
            self.serialNumber = serialNumber
            self.byIdPath = byIdPath
        }
    }

    /// The device node after resolving links (/dev/ttyACM0, /dev/pts/3).
    public var resolvedPath: String
    /// Its device number (`st_rdev`).
    public var device: UInt64
    /// USB facts; nil for everything else (ptys, on-board UARTs).
    public var usb: USB?

    /// An identity from known facts (tests, or `current(path:)`); `usb` nil for a non-USB device.
    public init(resolvedPath: String, device: UInt64, usb: USB?) {
        self.resolvedPath = resolvedPath
        self.device = device
        self.usb = usb
    }

    /// The identity of what `path` names now. Throws like `PortPath.resolve`
    /// (`.danglingLink` for a link whose target is gone, `.noSuchPort`, ...).
    public static func current(path: String) throws(SerialError) -> PortIdentity {
        let port = try PortPath.resolve(path)
        var st = stat()
        guard stat(port.resolved, &st) == 0 else { throw .noSuchPort(port: path) }
        var usb: USB? = nil
        if !port.isPseudoTerminal, let info = SerialPortLister.info(path: port.resolved), info.transport == .usb {
            usb = USB(vendorID: info.usbVendorID, productID: info.usbProductID,
                      serialNumber: info.serialNumber.flatMap { $0.isEmpty ? nil : $0 }, byIdPath: info.byIdPath)
        }
        return PortIdentity(resolvedPath: port.resolved, device: UInt64(st.st_rdev), usb: usb)
    }

    /// How a reopened port relates to the one seen before.
    public enum Match: Sendable, Equatable {
        /// Provably the same device: USB with the same VID:PID and serial number
        /// (its ttyACM number may have changed).
        case same
        /// Nothing contradicts it, nothing proves it: the same pty or UART path
        /// and number (pty numbers are reused by unrelated terminals), or a USB
        /// device without a serial number and the same VID:PID.
        case unproven
        /// Provably another device: another VID:PID or serial number, USB vs not,
        /// or (without USB facts) another device node.
        case different

        /// Only `.same` may be written to before the board sent a valid frame.
        public var allowsWritingBeforeAFrame: Bool { self == .same }
    }

    /// Compares what was seen before (`self`) with `now`.
    public func compare(with now: PortIdentity) -> Match {
        switch (usb, now.usb) {
        case let (before?, after?):
            guard before.vendorID == after.vendorID, before.productID == after.productID else { return .different }
            switch (before.serialNumber, after.serialNumber) {
            case let (a?, b?): return a == b ? .same : .different
            case (nil, nil): return before.byIdPath == after.byIdPath ? .unproven : .different
            default: return .different
            }
        case (nil, nil):
            return resolvedPath == now.resolvedPath && device == now.device ? .unproven : .different
        default:
            return .different
        }
    }
}
