#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TiltCore

/// A USB-serial bridge that brltty took away: the known Ubuntu 22.04 conflict.
///
/// brltty (a braille-display service) ships udev rules that claim some
/// braille displays' USB ids, which are also the ids of ordinary USB-serial
/// bridges (CH340 1a86:7523, CP210x 10c4:ea60, FTDI 0403:6001). When such a
/// board is plugged in, the kernel makes /dev/ttyUSB0, then brltty claims the
/// USB interface a second later and the tty vanishes ("usbfs: interface 0
/// claimed by ch341 while 'brltty' sets config #1" in `dmesg`). What is left
/// in sysfs is a USB device with one of those ids and no tty under it.
public struct BrlttyConflict: Sendable, Equatable {
    /// The bridge's USB vendor id.
    public let vendorID: UInt16
    /// The bridge's USB product id.
    public let productID: UInt16
    /// Its sysfs name under /sys/bus/usb/devices ("1-3").
    public let usbDevice: String
    /// What shows brltty is installed: its udev rules file, or "the brltty package".
    public let evidence: String

    /// A conflict as found (tests build them by hand).
    public init(vendorID: UInt16, productID: UInt16, usbDevice: String, evidence: String) {
        self.vendorID = vendorID
        self.productID = productID
        self.usbDevice = usbDevice
        self.evidence = evidence
    }

    /// One line: what happened and the command that ends it.
    public var message: String {
        let ids = HexText.digits(vendorID) + ":" + HexText.digits(productID)
        let what = USBBoard.lookup(vendorID: vendorID, productID: productID)?.name ?? "USB-serial bridge"
        return "a \(what) (\(ids), USB \(usbDevice)) is plugged in but has no serial port: brltty (\(evidence)) "
            + "claims \(ids) for a braille display and took it (the known Ubuntu 22.04 conflict); "
            + "run `sudo apt remove brltty` (if you need brltty: `sudo systemctl mask brltty-udev.service`), then replug the board"
    }

    /// Where brltty's udev rules live (Ubuntu: /lib, merged-/usr systems: /usr/lib;
    /// /etc overrides both, and an empty or /dev/null file there disables them).
    static let rulesFiles = ["usr/lib/udev/rules.d/85-brltty.rules", "lib/udev/rules.d/85-brltty.rules"]
    static let overrideFile = "etc/udev/rules.d/85-brltty.rules"

    /// The bridge ids brltty 6.4-6.5 claims (its metainfo's modaliases):
    /// assumed when the package is installed but its rules cannot be read.
    public static let claimedBridgeIDs: [(UInt16, UInt16)] = [(0x1A86, 0x7523), (0x10C4, 0xEA60), (0x0403, 0x6001)]

    /// The first USB device under `root`/sys/bus/usb/devices whose ids brltty
    /// claims and that has no tty, when brltty is installed under `root`
    /// (its rules file, or dpkg's status); nil otherwise. `root` is "/" on a
    /// real machine and a fake tree in tests. The bridges come first (a few
    /// small sysfs files), so a machine with none never reads dpkg's status,
    /// which runs to megabytes.
    public static func find(root: String = "/") -> BrlttyConflict? {
        let orphans = orphanBridges(root: root)
        guard !orphans.isEmpty, let (claimed, evidence) = brlttyClaims(root: root) else { return nil }
        for orphan in orphans where claimed.contains(where: { $0 == (orphan.vid, orphan.pid) }) {
            return BrlttyConflict(vendorID: orphan.vid, productID: orphan.pid, usbDevice: orphan.name, evidence: evidence)
        }
        return nil
    }

    /// The USB devices under `root`/sys/bus/usb/devices that are known
    /// USB-serial bridges and carry no tty, in directory order.
    static func orphanBridges(root: String) -> [(name: String, vid: UInt16, pid: UInt16)] {
        let devices = join(root, "sys/bus/usb/devices")
        var found: [(name: String, vid: UInt16, pid: UInt16)] = []
        for name in entries(of: devices) where !name.contains(":") {
            let dir = devices + "/" + name
            guard let vid = readSmallFile(dir + "/idVendor").flatMap({ UInt16($0, radix: 16) }),
                  let pid = readSmallFile(dir + "/idProduct").flatMap({ UInt16($0, radix: 16) }),
                  isBridge(vid, pid), !hasTTY(dir) else { continue }
            found.append((name, vid, pid))
        }
        return found
    }

    /// The ids brltty's rules claim and what shows it is installed; nil when it is not
    /// (or an /etc override disabled its rules).
    static func brlttyClaims(root: String) -> (ids: [(UInt16, UInt16)], evidence: String)? {
        let override = join(root, overrideFile)
        if let target = readLink(override), target == "/dev/null" { return nil }
        if let text = readTextFile(override, limit: 1 << 20) {
            return text.isEmpty ? nil : (claimedIDs(rules: text), "/" + overrideFile)
        }
        for file in rulesFiles {
            if let text = readTextFile(join(root, file), limit: 1 << 20) {
                let ids = claimedIDs(rules: text)
                return (ids.isEmpty ? claimedBridgeIDs : ids, "/" + file)
            }
        }
        if packageInstalled(root: root) { return (claimedBridgeIDs, "the brltty package is installed") }
        return nil
    }

    /// The USB ids a udev rules text matches: `ENV{PRODUCT}=="1a86/7523/*"`
    /// (brltty's form: hex without leading zeros) and `usb:v1A86p7523` modaliases.
    static func claimedIDs(rules: String) -> [(UInt16, UInt16)] {
        var ids: [(UInt16, UInt16)] = []
        for line in rules.split(separator: "\n") where !line.hasPrefix("#") {
            var rest = Substring(line)
            while let r = rest.firstRange(of: "ENV{PRODUCT}==\"") {
                rest = rest[r.upperBound...]
                let parts = rest.prefix { $0 != "\"" }.split(separator: "/", omittingEmptySubsequences: false)
                if parts.count >= 2, let v = UInt16(parts[0], radix: 16), let p = UInt16(parts[1], radix: 16) { ids.append((v, p)) }
            }
            rest = Substring(line)
            while let r = rest.firstRange(of: "usb:v") {
                rest = rest[r.upperBound...]
                let v = rest.prefix(4), after = rest.dropFirst(4)
                guard after.first == "p", let vid = UInt16(v, radix: 16), let pid = UInt16(after.dropFirst().prefix(4), radix: 16) else { continue }
                ids.append((vid, pid))
            }
        }
        return ids
    }

    /// Only bridges a board may carry count: a real braille display brltty
    /// drives has no tty either, and is not ours to explain.
    static func isBridge(_ vid: UInt16, _ pid: UInt16) -> Bool {
        USBBoard.lookup(vendorID: vid, productID: pid)?.kind == .resetsOnOpen
    }

    /// dpkg's status file lists brltty as installed.
    static func packageInstalled(root: String) -> Bool {
        guard let status = readTextFile(join(root, "var/lib/dpkg/status"), limit: 64 << 20) else { return false }
        return dpkgStatus(status, listsInstalled: "brltty")
    }

    /// Whether a dpkg status text has `package`'s stanza with the installed
    /// status line. Line by line over the UTF-8 bytes: splitting the 600 KB
    /// file of a desktop install into Character strings took 20 ms.
    static func dpkgStatus(_ status: String, listsInstalled package: String) -> Bool {
        let header = Array("Package: \(package)".utf8), installed = Array("Status: install ok installed".utf8)
        var status = status
        return status.withUTF8 { text in
            var inStanza = false
            var start = 0
            while start < text.count {
                let end = text[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
                let line = text[start..<end]
                if line.isEmpty {
                    if inStanza { return false }  // its stanza ended without the line
                } else if line.elementsEqual(header) {
                    inStanza = true
                } else if inStanza && line.elementsEqual(installed) {
                    return true
                }
                start = end + 1
            }
            return false
        }
    }

    /// Whether a USB device's interfaces ("1-3:1.0") carry a tty
    /// (ttyUSB0 for usb-serial drivers, tty/ttyACM0 for cdc_acm).
    static func hasTTY(_ device: String) -> Bool {
        for interface in entries(of: device) where interface.contains(":") {
            if entries(of: device + "/" + interface).contains(where: { $0.hasPrefix("tty") }) { return true }
        }
        return false
    }

    static func join(_ root: String, _ relative: String) -> String {
        root.hasSuffix("/") ? root + relative : root + "/" + relative
    }

    /// The names in a folder (following links, as sysfs's bus folders are), without . and ..
    static func entries(of path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

