#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLibSerialPort
import SystemPackage

/// Finds serial ports.
public enum SerialPortLister {
    /// Every port libserialport enumerates, with by-id names attached, sorted by path.
    ///
    /// Note: libserialport 0.1.1 probes 8250 UARTs (/dev/ttyS*) by opening them, and
    /// never lists pseudo-terminals (they are "virtual").
    public static func list(byIdDirectory: String = "/dev/serial/by-id") throws(SerialError) -> [PortInfo] {
        var list: UnsafeMutablePointer<OpaquePointer?>? = nil
        let r = sp_list_ports(&list)
        guard r == SP_OK, let list else {
            throw .ioError(port: "/sys/class/tty", operation: "sp_list_ports", errno: Errno(rawValue: sp_last_error_code()))
        }
        defer { sp_free_port_list(list) }
        let links = byIdLinks(in: byIdDirectory)
        var ports: [PortInfo] = []
        var i = 0
        while let port = list[i] {
            ports.append(info(of: port, byId: links))
            i += 1
        }
        return ports.sorted { $0.path < $1.path }
    }

    /// Metadata for one port without opening it (reads /sys only). Nil when libserialport
    /// does not know the name (ptys, files, by-id links: pass the resolved path).
    public static func info(path: String, byIdDirectory: String = "/dev/serial/by-id") -> PortInfo? {
        var port: OpaquePointer? = nil
        guard sp_get_port_by_name(path, &port) == SP_OK, let port else { return nil }
        defer { sp_free_port(port) }
        return info(of: port, byId: byIdLinks(in: byIdDirectory))
    }

    /// Ports that look like an Arduino-class board: USB, with a known bridge or board vendor id.
    /// Exactly one result means it is safe to pick it without asking.
    public static func likelyBoards(_ ports: [PortInfo]) -> [PortInfo] {
        ports.filter { $0.knownBoardVendor != nil }
    }

    /// Maps resolved device paths to the by-id symlinks pointing at them.
    public static func byIdLinks(in directory: String) -> [String: String] {
        guard let dir = opendir(directory) else { return [:] }
        defer { closedir(dir) }
        var links: [String: String] = [:]
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            let link = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if let target = realPath(link), links[target] == nil || link < links[target]! {
                links[target] = link
            }
        }
        return links
    }

    private static func info(of port: OpaquePointer, byId: [String: String]) -> PortInfo {
        let path = string(sp_get_port_name(port)) ?? "?"
        var info = PortInfo(path: path, byIdPath: byId[realPath(path) ?? path])
        info.description = string(sp_get_port_description(port))
        switch sp_get_port_transport(port) {
        case SP_TRANSPORT_USB: info.transport = .usb
        case SP_TRANSPORT_BLUETOOTH: info.transport = .bluetooth
        default: info.transport = .native
        }
        if info.transport == .usb {
            var vid: CInt = -1
            var pid: CInt = -1
            if sp_get_port_usb_vid_pid(port, &vid, &pid) == SP_OK, vid >= 0, pid >= 0 {
                info.usbVendorID = UInt16(truncatingIfNeeded: vid)
                info.usbProductID = UInt16(truncatingIfNeeded: pid)
            }
            info.manufacturer = string(sp_get_port_usb_manufacturer(port))
            info.product = string(sp_get_port_usb_product(port))
            info.serialNumber = string(sp_get_port_usb_serial(port))
        }
        return info
    }

    private static func string(_ p: UnsafeMutablePointer<CChar>?) -> String? {
        p.map { String(cString: $0) }
    }
}
