#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSerialShims
import SystemPackage

/// A port as the user named it and as the kernel knows it.
///
/// /dev/serial/by-id/... names are symlinks: they are resolved to decide how to open
/// the device (pty or real port), while `given` is kept for every message.
public struct PortPath: Sendable, Equatable {
    /// The name the user typed (kept for messages).
    public let given: String
    /// The name with every symlink resolved (e.g. /dev/ttyUSB0, /dev/pts/3).
    public let resolved: String
    /// True for pseudo-terminal slaves, which libserialport cannot open.
    public let isPseudoTerminal: Bool

    /// Resolves `path` and checks that it names a character device.
    public static func resolve(_ path: String) throws(SerialError) -> PortPath {
        guard let real = realPath(path) else {
            let e = Errno(rawValue: errno)
            if e == .noSuchFileOrDirectory, let target = danglingTarget(path) {
                throw .danglingLink(port: path, target: target)
            }
            throw openError(e, given: path, resolved: path, operation: "resolve")
        }
        var st = stat()
        guard stat(real, &st) == 0 else {
            throw openError(Errno(rawValue: errno), given: path, resolved: real, operation: "stat")
        }
        guard (st.st_mode & S_IFMT) == S_IFCHR else { throw .notASerialDevice(port: path) }
        return PortPath(given: path, resolved: real, isPseudoTerminal: isPtySlave(path: real, device: st.st_rdev))
    }
}

/// What `path` points at when it is a symlink whose target does not exist.
func danglingTarget(_ path: String) -> String? {
    var st = stat()
    guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return nil }
    return readLink(path) ?? "?"
}

/// Unix98 pty slaves use majors 136...143 (UNIX98_PTY_SLAVE_MAJOR and the following 7).
func isPtySlave(path: String, device: dev_t) -> Bool {
    let major = cserial_dev_major(device)
    return (136...143).contains(major) || path.hasPrefix("/dev/pts/")
}

func realPath(_ path: String) -> String? {
    guard let raw = realpath(path, nil) else { return nil }
    defer { free(raw) }
    return String(cString: raw)
}

/// Turns an errno from opening (or resolving) a port into the error the user should see.
func openError(_ e: Errno, given: String, resolved: String, operation: String) -> SerialError {
    switch e {
    case .noSuchFileOrDirectory, .notDirectory, .noSuchAddressOrDevice, .operationNotSupportedByDevice,
         .fileNameTooLong, .tooManySymbolicLinkLevels:  // no path so long (or looping) names a port
        return .noSuchPort(port: given)
    case .permissionDenied, .notPermitted:
        return .permissionDenied(port: given, group: owningGroup(of: resolved))
    case .resourceBusy, .wouldBlock:
        return .portBusy(port: given, holder: DeviceOpeners.busyHolder(of: resolved))
    case .isDirectory, .inappropriateIOCTLForDevice, .notSupported:
        return .notASerialDevice(port: given)
    case .ioError:
        return .deviceGone(port: given)
    default:
        return .ioError(port: given, operation: operation, errno: e)
    }
}

/// Name of the group owning the device node ("dialout", "uucp", "tty"), if known.
func owningGroup(of path: String) -> String? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    var group = group()
    var result: UnsafeMutablePointer<group>? = nil
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buf in
        guard getgrgid_r(st.st_gid, &group, buf.baseAddress, buf.count, &result) == 0,
              result != nil, let name = group.gr_name else { return nil }
        return String(cString: name)
    }
}

func readLink(_ path: String) -> String? {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buf in
        let n = readlink(path, buf.baseAddress!, buf.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: buf.baseAddress, count: n), as: UTF8.self)
    }
}

/// Reads a small text file (sysfs attribute, /proc entry), trimmed; nil if unreadable.
func readSmallFile(_ path: String) -> String? {
    guard let fd = try? FileDescriptor.open(FilePath(path), .readOnly) else { return nil }
    defer { try? fd.close() }
    let text: String? = withUnsafeTemporaryAllocation(byteCount: 512, alignment: 1) { buf in
        guard let n = try? fd.read(into: buf) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buf[..<n]), as: UTF8.self)
    }
    return text.map { String($0.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()) }
}
