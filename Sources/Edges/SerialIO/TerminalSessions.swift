#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSerialShims

/// Whether a tty is someone's terminal: the controlling terminal of a
/// session (a shell in a terminal window), which no board ever is.
///
/// Why: a pseudo-terminal's number is handed to the next terminal opened
/// once its emulator quits, so `/dev/pts/4` (or a `--link` left behind by a
/// killed tiltsim) can name a person's shell a minute later. Opening it
/// would put that terminal in raw mode at 115200 baud and read the
/// person's keystrokes (found by an outside tester). The kernel says in
/// /proc/PID/stat which tty each process has as its controlling terminal;
/// an emulator's pty is nobody's (tiltsim holds its master, and hosts open
/// the slave with O_NOCTTY).
public enum TerminalSessions {
    /// A process whose controlling terminal is the device `path` names (a
    /// shell's or its children's), nil when there is none, `path` is no
    /// character device, or /proc does not say. Bounded by `budget`.
    public static func member(of path: String, budget: Duration = .milliseconds(200)) -> DeviceOpener? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFCHR else { return nil }
        let wanted = ttyNumber(st.st_rdev)
        let deadline = MonotonicClock.deadline(after: budget)
        guard let proc = opendir("/proc") else { return nil }
        defer { closedir(proc) }
        while MonotonicClock.now() < deadline, let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), let stat = readTextFile("/proc/\(pid)/stat", limit: 1024),
                  controllingTerminal(statLine: stat) == wanted else { continue }
            return DeviceOpener(pid: pid, command: readSmallFile("/proc/\(pid)/comm") ?? "?")
        }
        return nil
    }

    /// Field 7 of a /proc/PID/stat line, `tty_nr`; nil if the line does not
    /// parse. The command name (field 2) may hold spaces and parentheses, so
    /// the fields are counted from its last ')'.
    static func controllingTerminal(statLine: String) -> UInt32? {
        guard let close = statLine.lastIndex(of: ")") else { return nil }
        // After ')': state, ppid, pgrp, session, tty_nr.
        let fields = statLine[statLine.index(after: close)...].split(separator: " ")
        guard fields.count > 4, let tty = Int64(fields[4]) else { return nil }
        return UInt32(truncatingIfNeeded: tty)
    }

    /// `tty_nr`'s encoding of a device number (the kernel's new_encode_dev:
    /// minor's low byte, major, then the minor's upper bits).
    static func ttyNumber(_ device: dev_t) -> UInt32 {
        let major = cserial_dev_major(device), minor = cserial_dev_minor(device)
        return (minor & 0xFF) | (major << 8) | ((minor & ~0xFF) << 12)
    }
}
