#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// FTDI adapters (driver ftdi_sio, /dev/ttyUSBn) hold received bytes for up to 16 ms
/// by default before sending them to the host; 1 ms makes the tilt loop feel direct.
/// CDC-ACM boards (/dev/ttyACMn, e.g. an Uno's 16U2) have no such timer.
public enum FTDILatency {
    /// What `lower` found or did. Nothing is printed; commands decide what to show.
    public enum Outcome: Sendable, Equatable {
        /// Not an FTDI port (other driver, ACM, pty): nothing to do.
        case notApplicable
        /// Already at `milliseconds` (<= 1).
        case alreadyLow(milliseconds: Int)
        /// Changed from `from` ms to 1 ms.
        case lowered(from: Int)
        /// Could not write it; `command` lowers it once, `udevRule` for good.
        case needsPermission(current: Int, command: String, udevRule: String)
        /// The attribute exists but could not be read or parsed.
        case unreadable(path: String)
    }

    /// Reads `<sysfs>/bus/usb-serial/devices/<tty>/latency_timer` for `devicePath`
    /// (resolve by-id links first, see `PortPath`) and, if above 1 ms, tries to write 1.
    public static func lower(devicePath: String, sysfsRoot: String = "/sys") -> Outcome {
        let tty = devicePath.split(separator: "/").last.map(String.init) ?? devicePath
        guard tty.hasPrefix("ttyUSB") else { return .notApplicable }
        let dir = "\(sysfsRoot)/bus/usb-serial/devices/\(tty)"
        guard let driver = readLink("\(dir)/driver"), driver.hasSuffix("/ftdi_sio") || driver == "ftdi_sio" else {
            return .notApplicable
        }
        let attribute = "\(dir)/latency_timer"
        guard let text = readSmallFile(attribute), let current = Int(text) else { return .unreadable(path: attribute) }
        if current <= 1 { return .alreadyLow(milliseconds: current) }
        if writeSmallFile(attribute, "1\n"), let now = readSmallFile(attribute).flatMap(Int.init), now == 1 {
            return .lowered(from: current)
        }
        return .needsPermission(
            current: current,
            command: "echo 1 | sudo tee /sys/bus/usb-serial/devices/\(tty)/latency_timer",
            udevRule: #"ACTION=="add", SUBSYSTEM=="usb-serial", DRIVER=="ftdi_sio", ATTR{latency_timer}="1""#
                + "   (save as /etc/udev/rules.d/99-ftdi-latency.rules, then `sudo udevadm control --reload` and replug)")
    }
}

/// Writes a short string to an existing file (a sysfs attribute); false on any failure.
func writeSmallFile(_ path: String, _ text: String) -> Bool {
    guard let fd = try? FileDescriptor.open(FilePath(path), .writeOnly, options: [.truncate]) else { return false }
    defer { try? fd.close() }
    var text = text
    return text.withUTF8 { bytes in (try? fd.writeAll(bytes)) == bytes.count }
}
