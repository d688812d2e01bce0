#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSerialShims
import SystemPackage
import TiltCore

/// A process that has a device open.
public struct DeviceOpener: Sendable, Equatable, CustomStringConvertible {
    /// Its process id (a /proc/PID entry whose fd/ links to the device).
    public let pid: pid_t
    /// Its command name (/proc/PID/comm, at most 15 characters), "?" if unreadable.
    public let command: String

    /// An opener as found in /proc; `command` is "?" when it could not be read.
    public init(pid: pid_t, command: String) {
        self.pid = pid
        self.command = command
    }

    /// "screen (pid 4242)".
    public var description: String { "\(command) (pid \(pid))" }

    /// Whether it is the process asking (a second open of a port it holds).
    public var isThisProcess: Bool { pid == getpid() }
}

/// Who else has a serial device open. A reader that takes no lock (`cat`,
/// another monitor) silently steals most of the bytes, so the host should say so.
public enum DeviceOpeners {
    /// Other processes with a descriptor on the same device as `path` (a device,
    /// a /dev/serial/by-id link, an emulator's `--link`), found by scanning
    /// /proc/PID/fd and comparing device numbers (`st_rdev`, so any name for the
    /// device matches). Our own process is left out. Processes we may not look
    /// into are skipped. Bounded: at most `limit` results and `budget` of
    /// scanning (a few ms on a desktop); empty when `path` is no character device.
    ///
    /// For a pseudo-terminal, the process that holds its master (an emulated
    /// board: tiltsim keeps the slave open so the link never hangs up) is the
    /// board side, not another reader, and is left out too.
    public static func others(of path: String, limit: Int = 8, budget: Duration = .milliseconds(200)) -> [DeviceOpener] {
        guard let device = characterDevice(path) else { return [] }
        let found = scan(device: device, includingSelf: false, limit: limit, budget: budget)
        guard let index = ptyIndex(device) else { return found }
        return found.filter { !holdsMaster(pid: $0.pid, ptyIndex: index) }
    }

    /// The process holding the master of the pseudo-terminal at `path` (a
    /// slave such as /dev/pts/3, or a link to one): the board side of an
    /// emulator's port, this process included. Nil when `path` is no pty
    /// slave or none is found within `budget`.
    public static func boardSide(of path: String, budget: Duration = .milliseconds(200)) -> DeviceOpener? {
        guard let device = characterDevice(path), let index = ptyIndex(device) else { return nil }
        let deadline = MonotonicClock.deadline(after: budget)
        guard let proc = opendir("/proc") else { return nil }
        defer { closedir(proc) }
        while MonotonicClock.now() < deadline, let entry = readdir(proc) {
            guard let pid = pid_t(entryName(entry)), holdsMaster(pid: pid, ptyIndex: index) else { continue }
            return DeviceOpener(pid: pid, command: readSmallFile("/proc/\(pid)/comm") ?? "?")
        }
        return nil
    }

    /// The N of /dev/pts/N for a Unix98 pty slave (majors 136...143, 256 minors each).
    static func ptyIndex(_ device: dev_t) -> UInt32? {
        let major = cserial_dev_major(device)
        guard (136...143).contains(major) else { return nil }
        return (major - 136) * 256 + cserial_dev_minor(device)
    }

    /// Whether `pid` has /dev/ptmx open for pty `ptyIndex` (its fdinfo's `tty-index`).
    static func holdsMaster(pid: pid_t, ptyIndex: UInt32) -> Bool {
        let dir = "/proc/\(pid)/fd"
        guard let fds = opendir(dir) else { return false }
        defer { closedir(fds) }
        while let entry = readdir(fds) {
            let name = entryName(entry)
            guard name.first?.isNumber == true, let target = readLink("\(dir)/\(name)"),
                  target == "/dev/ptmx" || target == "/dev/pts/ptmx",
                  let info = readTextFile("/proc/\(pid)/fdinfo/\(name)", limit: 4096) else { continue }
            if info.split(separator: "\n").contains("tty-index:\t\(ptyIndex)") { return true }
        }
        return false
    }

    /// Who to name in a "port busy" message for `path`: the process holding its
    /// flock (from /proc/locks) if it still exists, else another process with it
    /// open (a TIOCEXCL holder such as screen or minicom), else this process if
    /// it has it open itself; nil when /proc shows none of them.
    public static func busyHolder(of path: String) -> DeviceOpener? {
        if let pid = flockHolder(of: path), let comm = readSmallFile("/proc/\(pid)/comm") {
            return DeviceOpener(pid: pid, command: comm)
        }
        if let other = others(of: path, limit: 1).first { return other }
        guard let device = characterDevice(path) else { return nil }
        return scan(device: device, includingSelf: true, limit: 1, budget: .milliseconds(200)).first
    }

    /// The pid /proc/locks gives for a FLOCK on `path`'s inode
    /// ("1: FLOCK  ADVISORY  WRITE 1234 00:05:87 0 EOF": major:minor in hex, inode).
    /// Only while that process lives (an inherited lock keeps a dead locker's pid).
    static func flockHolder(of path: String) -> pid_t? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let inode = "\(String(cserial_dev_major(st.st_dev), radix: 16, uppercase: false).leftPadded(2)):"
            + "\(String(cserial_dev_minor(st.st_dev), radix: 16, uppercase: false).leftPadded(2)):\(st.st_ino)"
        guard let locks = readTextFile("/proc/locks", limit: 1 << 20) else { return nil }
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ")
            // Waiters are listed as "1: -> FLOCK ..."; only holders count.
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == inode, let pid = pid_t(fields[4]) else { continue }
            if access("/proc/\(pid)", F_OK) == 0 { return pid }
        }
        return nil
    }

    private static func characterDevice(_ path: String) -> dev_t? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFCHR else { return nil }
        return st.st_rdev
    }

    private static func scan(device: dev_t, includingSelf: Bool, limit: Int, budget: Duration) -> [DeviceOpener] {
        let deadline = MonotonicClock.deadline(after: budget)
        let me = getpid()
        var found: [DeviceOpener] = []
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        while found.count < limit, MonotonicClock.now() < deadline, let entry = readdir(proc) {
            guard let pid = pid_t(entryName(entry)), includingSelf || pid != me,
                  has(pid: pid, device: device) else { continue }
            found.append(DeviceOpener(pid: pid, command: readSmallFile("/proc/\(pid)/comm") ?? "?"))
        }
        return found
    }

    /// Whether any of `pid`'s descriptors is the device (EACCES, a process gone: false).
    /// One `fstatat` per descriptor, relative to the open fd folder: it follows
    /// the magic link to the open file itself (sockets and pipes included), and
    /// costs a fraction of a `readlink`, which builds the target's path name.
    private static func has(pid: pid_t, device: dev_t) -> Bool {
        guard let fds = opendir("/proc/\(pid)/fd") else { return false }
        defer { closedir(fds) }
        let folder = dirfd(fds)
        var st = stat()
        while let entry = readdir(fds) {
            let isDescriptor = withUnsafeBytes(of: entry.pointee.d_name) { $0.first.map { (0x30...0x39).contains($0) } ?? false }
            guard isDescriptor else { continue }
            let found = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                fstatat(folder, raw.baseAddress!.assumingMemoryBound(to: CChar.self), &st, 0) == 0
            }
            if found, (st.st_mode & S_IFMT) == S_IFCHR, st.st_rdev == device { return true }
        }
        return false
    }

    private static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

/// Reads a whole text file (a /proc table) up to `limit` bytes; nil if unreadable.
func readTextFile(_ path: String, limit: Int) -> String? {
    guard let fd = try? FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) else { return nil }
    defer { try? fd.close() }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count < limit {
        guard let n = try? chunk.withUnsafeMutableBytes({ try fd.read(into: $0) }), n > 0 else { break }
        bytes += chunk[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
