import Foundation
import SerialIO
import Testing

@Suite("Port listing")
struct PortListingTests {
    @Test func byIdLinksMapResolvedDevicesToTheirStableNames() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let dir = try makeTempDir()
        defer { removeTree(dir) }
        let link = dir + "/usb-Arduino__www.arduino.cc__0043_7573-if00"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pty.slavePath)
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling", withDestinationPath: "/dev/ttyACM97")
        let links = SerialPortLister.byIdLinks(in: dir)
        #expect(links == [pty.slavePath: link])
        #expect(SerialPortLister.byIdLinks(in: dir + "/missing").isEmpty)
    }

    @Test func likelyBoardsKeepsUSBPortsWithKnownVendors() {
        let uno = PortInfo(path: "/dev/ttyACM0", byIdPath: "/dev/serial/by-id/usb-Arduino-if00",
                           transport: .usb, usbVendorID: 0x2341, usbProductID: 0x0043)
        let ch340 = PortInfo(path: "/dev/ttyUSB0", transport: .usb, usbVendorID: 0x1A86, usbProductID: 0x7523)
        let modem = PortInfo(path: "/dev/ttyUSB1", transport: .usb, usbVendorID: 0x12D1, usbProductID: 0x1001)
        let console = PortInfo(path: "/dev/ttyS0", transport: .native)
        let bluetooth = PortInfo(path: "/dev/rfcomm0", transport: .bluetooth, usbVendorID: 0x2341)
        #expect(SerialPortLister.likelyBoards([console, uno, modem, ch340, bluetooth]) == [uno, ch340])
        #expect(uno.preferredName == "/dev/serial/by-id/usb-Arduino-if00")
        #expect(ch340.preferredName == "/dev/ttyUSB0")
        #expect(ch340.knownBoardVendor == "QinHeng CH340/CH341")
    }

    /// sp_list_ports opens (probes) only ttys whose sysfs path goes through "serial8250"
    /// (platform UARTs); everything else it reads from /sys. Run only where it opens nothing.
    @Test(.enabled(if: listingOpensNoDevice()))
    func listingFromSysfsSkipsPtys() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let ports = try SerialPortLister.list()
        #expect(ports.allSatisfy { $0.path.hasPrefix("/dev/") && !$0.path.hasPrefix("/dev/pts/") })
        #expect(!ports.contains { $0.path == pty.slavePath })
        #expect(ports.map(\.path) == ports.map(\.path).sorted())
        if FileManager.default.fileExists(atPath: "/sys/class/tty/ttyS0/device") {
            #expect(ports.contains { $0.path == "/dev/ttyS0" && $0.transport == .native })
        }
    }

    @Test func ptysAreUnknownToLibSerialPortMetadata() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        #expect(SerialPortLister.info(path: pty.slavePath) == nil)
    }

    /// Reads /sys only (sp_get_port_by_name never opens the device): safe for the console UART.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/sys/class/tty/ttyS0/device")))
    func metadataOfANativeUARTWithoutOpeningIt() throws {
        let info = try #require(SerialPortLister.info(path: "/dev/ttyS0"))
        #expect(info.path == "/dev/ttyS0")
        #expect(info.transport == .native)
        #expect(info.usbVendorID == nil)
        #expect(SerialPortLister.likelyBoards([info]).isEmpty)
    }
}

@Suite("FTDI latency timer")
struct FTDILatencyTests {
    /// A fake sysfs: <root>/bus/usb-serial/devices/<tty>/{latency_timer, driver -> .../<driver>}.
    func fakeSysfs(tty: String, driver: String, latency: String) throws -> String {
        let root = try makeTempDir()
        let dev = root + "/bus/usb-serial/devices/" + tty
        try FileManager.default.createDirectory(atPath: dev, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/bus/usb-serial/drivers/" + driver, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dev + "/driver", withDestinationPath: "../../../../bus/usb-serial/drivers/" + driver)
        #expect(FileManager.default.createFile(atPath: dev + "/latency_timer", contents: Data(latency.utf8)))
        return root
    }

    func latency(_ root: String, _ tty: String) throws -> String {
        try String(contentsOfFile: root + "/bus/usb-serial/devices/\(tty)/latency_timer", encoding: .utf8)
    }

    @Test func lowersA16msTimerTo1ms() throws {
        let root = try fakeSysfs(tty: "ttyUSB3", driver: "ftdi_sio", latency: "16\n")
        defer { removeTree(root) }
        #expect(FTDILatency.lower(devicePath: "/dev/ttyUSB3", sysfsRoot: root) == .lowered(from: 16))
        #expect(try latency(root, "ttyUSB3") == "1\n")
        #expect(FTDILatency.lower(devicePath: "/dev/ttyUSB3", sysfsRoot: root) == .alreadyLow(milliseconds: 1))
    }

    @Test func explainsHowWhenNotAllowed() throws {
        let root = try fakeSysfs(tty: "ttyUSB0", driver: "ftdi_sio", latency: "16\n")
        defer { removeTree(root) }
        #expect(chmod(root + "/bus/usb-serial/devices/ttyUSB0/latency_timer", 0o644) == 0)
        let outcome = asUnprivilegedUser { FTDILatency.lower(devicePath: "/dev/ttyUSB0", sysfsRoot: root) }
        guard case .needsPermission(let current, let command, let rule)?? = Optional(outcome) else {
            Issue.record("unexpected \(String(describing: outcome))"); return
        }
        #expect(current == 16)
        #expect(command == "echo 1 | sudo tee /sys/bus/usb-serial/devices/ttyUSB0/latency_timer")
        #expect(rule.contains(#"ATTR{latency_timer}="1""#))
        #expect(try latency(root, "ttyUSB0") == "16\n")
    }

    @Test func otherDriversAndACMPortsAreNotApplicable() throws {
        let root = try fakeSysfs(tty: "ttyUSB1", driver: "ch341-uart", latency: "16\n")
        defer { removeTree(root) }
        #expect(FTDILatency.lower(devicePath: "/dev/ttyUSB1", sysfsRoot: root) == .notApplicable)
        #expect(FTDILatency.lower(devicePath: "/dev/ttyACM0", sysfsRoot: root) == .notApplicable)
        #expect(FTDILatency.lower(devicePath: "/dev/pts/4", sysfsRoot: root) == .notApplicable)
    }

    @Test func garbageIsUnreadableNotACrash() throws {
        let root = try fakeSysfs(tty: "ttyUSB2", driver: "ftdi_sio", latency: "sixteen\n")
        defer { removeTree(root) }
        #expect(FTDILatency.lower(devicePath: "/dev/ttyUSB2", sysfsRoot: root)
                == .unreadable(path: root + "/bus/usb-serial/devices/ttyUSB2/latency_timer"))
    }
}

@Suite("PseudoTerminal")
struct PseudoTerminalTests {
    @Test func linkPointsAtTheSlaveAndIsRemovedOnClose() throws {
        let dir = try makeTempDir()
        defer { removeTree(dir) }
        let link = dir + "/tiltsim"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")  // stale link: replaced
        let pty = try PseudoTerminal.open(link: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == pty.slavePath)
        let host = try SerialPort.open(path: link)
        try write(pty.master, [0x55])
        #expect(try readExactly(host, count: 1) == [0x55])
        host.close()
        pty.close()
        #expect(!FileManager.default.fileExists(atPath: link))
    }

    @Test func refusesToReplaceARealFile() throws {
        let dir = try makeTempDir()
        defer { removeTree(dir) }
        let file = dir + "/precious"
        #expect(FileManager.default.createFile(atPath: file, contents: Data([9])))
        #expect(throws: SerialError.ioError(port: file, operation: "symlink", errno: .fileExists)) {
            _ = try PseudoTerminal.open(link: file)
        }
        #expect(FileManager.default.contents(atPath: file) == Data([9]))
    }

    @Test func keptSlaveLetsTheMasterWaitForAHost() throws {
        let kept = try PseudoTerminal.open(keepSlaveOpen: true)
        defer { kept.close() }
        #expect(try kept.master.waitReadable(timeout: .milliseconds(1)) == false)  // no hang-up while nobody is connected

        let unkept = try PseudoTerminal.open(keepSlaveOpen: false)
        defer { unkept.close() }
        try expectGoneWithinTwoRounds(unkept.master)  // nobody has the slave open: EIO
    }
}

func listingOpensNoDevice() -> Bool {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/tty") else { return false }
    return !names.contains { name in
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/sys/class/tty/" + name)) ?? "serial8250"
        return target.contains("serial8250")
    }
}
