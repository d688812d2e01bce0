#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the tools ask about the terminals on their descriptors.
public enum TerminalInfo {
    /// `fd` is a terminal (isatty).
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// TIOCGWINSZ on `fd`: (columns, rows); nil when it is not a terminal or reports 0 × 0.
    public static func windowSize(_ fd: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Both descriptors are terminals and the same device (st_rdev).
    public static func sameDevice(_ a: Int32, _ b: Int32) -> Bool {
        guard isatty(a) == 1, isatty(b) == 1 else { return false }
        var sa = stat(), sb = stat()
        guard fstat(a, &sa) == 0, fstat(b, &sb) == 0 else { return false }
        return sa.st_rdev == sb.st_rdev
    }
}
