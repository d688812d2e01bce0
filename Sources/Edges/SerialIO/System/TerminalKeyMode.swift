#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The terminal modes a view changes to read keys one at a time, kept where a
/// signal handler can put them back (everything here is async-signal-safe once
/// set up). One terminal at a time per process.
public enum TerminalKeyMode {
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var keyMode = termios()
    /// The terminal in key mode; -1 when none is.
    nonisolated(unsafe) static var keyFD: Int32 = -1

    /// Non-canonical, no echo, signals kept (Ctrl-C, Ctrl-Z, Ctrl-\ still
    /// work) on terminal `fd`; false when its modes cannot be read or set, or
    /// a terminal is in key mode already. Ctrl-S is a key like any other, as
    /// in vim or htop: with IXON it stopped the terminal's output, and the
    /// view's next write held the whole run (the link unread, thousands of
    /// frames lost, q and SIGTERM waiting) until Ctrl-Q.
    public static func enter(_ fd: Int32) -> Bool {
        guard keyFD < 0, tcgetattr(fd, &saved) == 0 else { return false }
        keyMode = saved
        keyMode.c_lflag &= ~tcflag_t(ICANON | ECHO)
        keyMode.c_iflag &= ~tcflag_t(IXON)
        withUnsafeMutableBytes(of: &keyMode.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &keyMode) == 0 else { return false }
        _ = tcflow(fd, TCOON)  // output stopped by a Ctrl-S before: going again
        keyFD = fd
        return true
    }

    /// Back to the modes found at `enter` (async-signal-safe); key mode is over.
    public static func restore() {
        guard keyFD >= 0 else { return }
        _ = tcsetattr(keyFD, TCSANOW, &saved)
        keyFD = -1
    }

    /// The modes found at `enter`, key mode kept on record (Ctrl-Z: the shell gets its terminal back).
    static func suspend() {
        if keyFD >= 0 { _ = tcsetattr(keyFD, TCSANOW, &saved) }
    }

    /// Key mode again after `suspend` (the run continued: `fg`).
    static func resume() {
        if keyFD >= 0 { _ = tcsetattr(keyFD, TCSANOW, &keyMode) }
    }

    /// Touches the globals, so no signal handler runs their lazy initialization.
    static func prepare() { _ = (keyFD, saved, keyMode) }
}
