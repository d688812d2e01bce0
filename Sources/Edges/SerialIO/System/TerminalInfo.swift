#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the tools ask about the terminals on their descriptors.
public enum TerminalInfo {
    /// `fd` is a terminal (isatty).
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Colour only on a terminal, never with NO_COLOR set to anything
    /// (no-color.org: any non-empty value), nor on a terminal without it:
    /// `dumb`, or a terminfo name of the monochrome kind (`xterm-mono`,
    /// `vt100-m`: ncurses' "-mono"/"-m"), which was sent colour. One rule
    /// for tiltserial's view and tiltsim's screen.
    public static func colourAllowed(noColor: String?, term: String?, isTerminal: Bool) -> Bool {
        let mono = term.map { $0 == "dumb" || $0.hasSuffix("-mono") || $0.hasSuffix("-m") } ?? false
        return isTerminal && (noColor ?? "").isEmpty && !mono
    }

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
