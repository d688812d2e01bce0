import Foundation
import SerialIO
import Testing

/// A fake filesystem root: the sysfs USB devices and brltty's traces that
/// `BrlttyConflict.find(root:)` reads, built file by file.
struct FakeSystemRoot {
    let root: String

    init() throws { root = try makeTempDir() }

    func file(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    }

    func folder(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: root + "/" + relative, withIntermediateDirectories: true)
    }

    /// A USB device as sysfs shows it: ids (as the kernel writes them: four
    /// lowercase hex digits and a newline) and one interface, with a tty or without.
    func usbDevice(_ name: String, vid: String, pid: String, tty: String?) throws {
        let dir = "sys/bus/usb/devices/" + name
        try file(dir + "/idVendor", vid + "\n")
        try file(dir + "/idProduct", pid + "\n")
        try folder(dir + "/\(name):1.0")
        if let tty { try folder(dir + "/\(name):1.0/" + tty) }
    }

    /// brltty 6.4's udev rule lines for the ids it claims (Ubuntu 22.04's form).
    func brlttyRules(at relative: String = "usr/lib/udev/rules.d/85-brltty.rules", products: [String]) throws {
        let lines = products.map { "ENV{PRODUCT}==\"\($0)/*\", ENV{BRLTTY_BRAILLE_DRIVER}=\"bm\", GOTO=\"brltty_usb_run\"" }
        try file(relative, (["# Device: generated", "SUBSYSTEM==\"usb\", GOTO=\"brltty_usb_begin\""] + lines).joined(separator: "\n") + "\n")
    }

    func remove() { removeTree(root) }
}

@Suite("brltty conflict")
struct BrlttyConflictTests {
    @Test func aCH340WithoutItsTtyIsExplainedWhenBrlttysRulesClaimIt() throws {
        let fake = try FakeSystemRoot()
        defer { fake.remove() }
        try fake.brlttyRules(products: ["1a86/7523", "10c4/ea60", "403/6001"])
        try fake.usbDevice("1-3", vid: "1a86", pid: "7523", tty: nil)
        try fake.usbDevice("usb1", vid: "1d6b", pid: "0002", tty: nil)  // a root hub: not claimed
        let conflict = try #require(BrlttyConflict.find(root: fake.root))
        #expect(conflict == BrlttyConflict(vendorID: 0x1A86, productID: 0x7523, usbDevice: "1-3",
                                           evidence: "/usr/lib/udev/rules.d/85-brltty.rules"))
        #expect(!conflict.message.contains("\n"))
        #expect(conflict.message.contains("1a86:7523"))
        #expect(conflict.message.contains("CH340"))
        #expect(conflict.message.contains("`sudo apt remove brltty`"))
        #expect(conflict.message.contains("`sudo systemctl mask brltty-udev.service`"))
    }

    @Test func aBridgeThatKeptItsTtyIsNoConflict() throws {
        let fake = try FakeSystemRoot()
        defer { fake.remove() }
        try fake.brlttyRules(products: ["1a86/7523"])
        try fake.usbDevice("1-3", vid: "1a86", pid: "7523", tty: "ttyUSB0")
        #expect(BrlttyConflict.find(root: fake.root) == nil)
        // The same device without its tty is one: the fixture can fail.
        try FileManager.default.removeItem(atPath: fake.root + "/sys/bus/usb/devices/1-3/1-3:1.0/ttyUSB0")
        #expect(BrlttyConflict.find(root: fake.root)?.usbDevice == "1-3")
    }

    @Test func withoutBrlttyAnOrphanBridgeIsNotBlamedOnIt() throws {
        let fake = try FakeSystemRoot()
        defer { fake.remove() }
        try fake.usbDevice("1-3", vid: "1a86", pid: "7523", tty: nil)
        try fake.file("var/lib/dpkg/status", "Package: brltty\nStatus: deinstall ok config-files\n\nPackage: bash\nStatus: install ok installed\n")
        #expect(BrlttyConflict.find(root: fake.root) == nil)
    }

    @Test func theInstalledPackageAloneCountsWithTheIdsBrlttyClaims() throws {
        let fake = try FakeSystemRoot()
        defer { fake.remove() }
        try fake.usbDevice("2-1.4", vid: "10c4", pid: "ea60", tty: nil)
        try fake.file("var/lib/dpkg/status",
                      "Package: bash\nStatus: install ok installed\n\nPackage: brltty\nStatus: install ok installed\nVersion: 6.4-4ubuntu3\n")
        let conflict = try #require(BrlttyConflict.find(root: fake.root))
        #expect(conflict.vendorID == 0x10C4 && conflict.productID == 0xEA60)
        #expect(conflict.evidence == "the brltty package is installed")
        #expect(conflict.message.contains("CP210x"))
    }

    @Test func onlyBrlttysOwnStanzaWithTheInstalledLineCounts() throws {
        let fake = try FakeSystemRoot()
        defer { fake.remove() }
        try fake.usbDevice("2-1", vid: "1a86", pid: "7523", tty: nil)
        // A look-alike package installed, brltty's stanza without the line (it comes in the next stanza).
        try fake.file("var/lib/dpkg/status",
                      "Package: brltty-x11\nStatus: install ok installed\n\nPackage: brltty\nVersion: 6.4\n\n"
                      + "Package: zsh\nStatus: install ok installed\n")
        #expect(BrlttyConflict.find(root: fake.root) == nil)
        // A desktop's worth of stanzas, brltty's last and without a final newline.
        let others = (0..<3000).map { "Package: p\($0)\nStatus: install ok installed\nDescription: filler\n" }
        try fake.file("var/lib/dpkg/status",
                      others.joined(separator: "\n") + "\nPackage: brltty\nVersion: 6.4\nStatus: install ok installed")
        #expect(BrlttyConflict.find(root: fake.root)?.evidence == "the brltty package is installed")
    }

    @Test func rulesInLibAreFoundAndOnlyTheirIdsCount() throws {
        let fake = try FakeSystemRoot()
        defer { fake.remove() }
        try fake.brlttyRules(at: "lib/udev/rules.d/85-brltty.rules", products: ["10c4/ea60"])
        try fake.usbDevice("1-3", vid: "1a86", pid: "7523", tty: nil)  // not in these rules
        #expect(BrlttyConflict.find(root: fake.root) == nil)
        try fake.usbDevice("1-4", vid: "10c4", pid: "ea60", tty: nil)
        #expect(BrlttyConflict.find(root: fake.root)?.evidence == "/lib/udev/rules.d/85-brltty.rules")
    }

    @Test func anOverrideInEtcThatDisablesTheRulesEndsTheConflict() throws {
        let fake = try FakeSystemRoot()
        defer { fake.remove() }
        try fake.brlttyRules(products: ["1a86/7523"])
        try fake.usbDevice("1-3", vid: "1a86", pid: "7523", tty: nil)
        #expect(BrlttyConflict.find(root: fake.root) != nil)
        try fake.folder("etc/udev/rules.d")
        try FileManager.default.createSymbolicLink(atPath: fake.root + "/etc/udev/rules.d/85-brltty.rules", withDestinationPath: "/dev/null")
        #expect(BrlttyConflict.find(root: fake.root) == nil)
    }

    @Test func aBrailleDisplayBrlttyDrivesIsNotABoard() throws {
        let fake = try FakeSystemRoot()
        defer { fake.remove() }
        try fake.brlttyRules(products: ["c251/1122"])  // a HandyTech display: brltty's own
        try fake.usbDevice("1-3", vid: "c251", pid: "1122", tty: nil)
        #expect(BrlttyConflict.find(root: fake.root) == nil)
    }

    @Test func aMissingRootFindsNothing() {
        #expect(BrlttyConflict.find(root: "/nonexistent/tiltserial-root") == nil)
    }
}
