import Foundation
import SerialIO
import Testing

@Suite("Open errors")
struct OpenErrorTests {
    @Test(arguments: [SerialOptions.Backend.automatic, .termios, .libserialport])
    func noSuchPort(backend: SerialOptions.Backend) {
        let path = "/dev/tiltserial-no-such-port"
        #expect(throws: SerialError.noSuchPort(port: path)) {
            _ = try SerialPort.open(path: path, options: SerialOptions(backend: backend))
        }
    }

    /// A name too long for the system (ENAMETOOLONG) names no port: not an I/O failure "check the cable".
    @Test(arguments: [SerialOptions.Backend.automatic, .termios, .libserialport])
    func aNameTooLongIsNoSuchPort(backend: SerialOptions.Backend) {
        let path = "/tmp/" + String(repeating: "0", count: 300)
        #expect(throws: SerialError.noSuchPort(port: path)) {
            _ = try SerialPort.open(path: path, options: SerialOptions(backend: backend))
        }
    }

    /// A name with control characters stays on one line and drives no terminal; a long one is cut.
    @Test func messagesShowThePortEscapedAndCut() {
        #expect(SerialError.noSuchPort(port: "/tmp/\u{1b}[2Jx").message == "/tmp/\\u{1b}[2Jx: no such serial port")
        #expect(SerialError.noSuchPort(port: "/tmp/a\nb").message == "/tmp/a\\nb: no such serial port")
        #expect(SerialError.danglingLink(port: "/tmp/l", target: "/dev/\u{202e}x").message.hasPrefix("/tmp/l: the link points at /dev/\\u{202e}x,"))
        let long = "/tmp/" + String(repeating: "a", count: 500)
        #expect(SerialError.noSuchPort(port: long).message == String(long.prefix(PortName.limit)) + "…: no such serial port")
        #expect(SerialError.noSuchPort(port: "/dev/ttyUSB0").message == "/dev/ttyUSB0: no such serial port", "a plain name as typed")
    }

    @Test func danglingByIdLinkIsReportedAsADanglingLink() throws {
        let dir = try makeTempDir()
        defer { removeTree(dir) }
        let link = dir + "/usb-Arduino_Uno-if00"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/ttyACM97")
        // Distinct from .noSuchPort (tiltserial still exits with noSuchPort's code 10).
        #expect(throws: SerialError.danglingLink(port: link, target: "/dev/ttyACM97")) { _ = try SerialPort.open(path: link) }
    }

    @Test(arguments: [SerialOptions.Backend.automatic, .termios, .libserialport])
    func regularFileAndDirectoryAreNotSerialDevices(backend: SerialOptions.Backend) throws {
        let dir = try makeTempDir()
        defer { removeTree(dir) }
        let file = dir + "/capture.bin"
        #expect(FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3])))
        for path in [file, dir] {
            #expect(throws: SerialError.notASerialDevice(port: path)) {
                _ = try SerialPort.open(path: path, options: SerialOptions(backend: backend))
            }
        }
    }

    @Test(arguments: [SerialOptions.Backend.automatic, .termios])
    func characterDeviceThatIsNoTTYIsNotASerialDevice(backend: SerialOptions.Backend) {
        // /dev/null: a character device, but tcgetattr says ENOTTY (and /sys/class/tty has no entry).
        #expect(throws: SerialError.notASerialDevice(port: "/dev/null")) {
            _ = try SerialPort.open(path: "/dev/null", options: SerialOptions(backend: backend))
        }
    }

    @Test func permissionDeniedNamesTheOwningGroup() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        var st = stat()
        #expect(stat(pty.slavePath, &st) == 0)
        let group = String(cString: getgrgid(st.st_gid)!.pointee.gr_name)  // "tty" for pty slaves
        // Root bypasses permissions; a thread with fsuid/fsgid = nobody does not.
        let outcome: SerialError?? = asUnprivilegedUser {
            do throws(SerialError) {
                let port = try SerialPort.open(path: pty.slavePath)
                port.close()
                return nil
            } catch {
                return error
            }
        }
        let error = try #require(outcome, "could not switch filesystem ids")
        #expect(error == .permissionDenied(port: pty.slavePath, group: group))
        #expect(error?.message.contains("sudo usermod -aG \(group) $USER") == true)
    }
}

@Suite("Error messages")
struct ErrorMessageTests {
    static let all: [SerialError] = [
        .noSuchPort(port: "/dev/ttyUSB9"),
        .permissionDenied(port: "/dev/ttyUSB0", group: "uucp"),
        .portBusy(port: "/dev/ttyACM0", holder: DeviceOpener(pid: 4242, command: "screen")),
        .danglingLink(port: "/dev/serial/by-id/usb-Arduino_Uno-if00", target: "../../ttyACM0"),
        .notASerialDevice(port: "/tmp/x"),
        .deviceGone(port: "/dev/ttyUSB0"),
        .writeTimedOut(port: "/dev/ttyUSB0", written: 10, total: 20),
        .unsupportedBaudRate(port: "/dev/ttyUSB0", baud: 12345),
        .ioError(port: "/dev/ttyUSB0", operation: "read", errno: .protocolError),
    ]

    @Test func messagesAreOneLineNameThePortAndTheFix() {
        for error in Self.all {
            #expect(!error.message.contains("\n"))
            #expect(error.message.hasPrefix(error.port + ": "))
        }
        #expect(SerialError.noSuchPort(port: "p").message == "p: no such serial port")
        #expect(!SerialError.notASerialDevice(port: "p").message.contains("tiltserial"), "SerialIO does not know the commands")
        #expect(SerialError.permissionDenied(port: "p", group: "uucp").message.contains("sudo usermod -aG uucp $USER"))
        #expect(SerialError.permissionDenied(port: "p", group: "uucp").message.contains("log"))
        #expect(SerialError.permissionDenied(port: "p", group: nil).message.contains("dialout"))
        #expect(SerialError.portBusy(port: "p", holder: DeviceOpener(pid: 4242, command: "screen")).message
            == "p: port busy, open in another program (screen, pid 4242): quit it or pick another port")
        #expect(SerialError.portBusy(port: "p", holder: nil).message.contains("serial monitor"))
        #expect(SerialError.ioError(port: "p", operation: "read", errno: .protocolError).message.contains("errno \(EPROTO)"))
    }
}

