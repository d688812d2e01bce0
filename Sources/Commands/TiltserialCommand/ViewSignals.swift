#if canImport(Glibc)
import Glibc
#endif
import SerialIO

/// The terminal modes the view changes for its keys, kept where a signal
/// handler can restore them (everything here is async-signal-safe once set up).
enum TerminalModes {
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var keyMode = termios()
    /// The terminal in key mode; -1 when none is.
    nonisolated(unsafe) static var keyFD: Int32 = -1

    /// Non-canonical, no echo, signals kept (Ctrl-C, Ctrl-Z, Ctrl-\ still work).
    static func enterKeyMode(_ fd: Int32) -> Bool {
        guard keyFD < 0, tcgetattr(fd, &saved) == 0 else { return false }
        keyMode = saved
        keyMode.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &keyMode.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &keyMode) == 0 else { return false }
        keyFD = fd
        return true
    }

    /// Back to the modes found at start (async-signal-safe).
    static func restore() {
        guard keyFD >= 0 else { return }
        _ = tcsetattr(keyFD, TCSANOW, &saved)
        keyFD = -1
    }
}

/// Signals while the view is up, all through the run's wake-up pipe or
/// straight to the terminal (no allocation, no locks in the handlers):
/// - SIGWINCH: redraw at the new size now.
/// - SIGHUP, SIGQUIT (Ctrl-\): stop like Ctrl-C, so the terminal is restored
///   and the summary printed (left alone when the parent ignores them, as nohup does).
/// - SIGTSTP (Ctrl-Z): restore the terminal, leave the view's screen, stop;
///   on `fg`, take the terminal again and redraw.
/// - SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT (a crash): restore the
///   terminal, then let the previous handler (Swift's backtracer) or the default have it.
enum ViewSignals {
    nonisolated(unsafe) static var wakeFD: Int32 = -1
    nonisolated(unsafe) static var screenFD: Int32 = -1
    nonisolated(unsafe) static var installed = false
    /// The actions found at install, by signal number.
    nonisolated(unsafe) static var previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    nonisolated(unsafe) static var leaveScreen = bytes(LiveView.leaveSequence)
    nonisolated(unsafe) static var enterScreen = bytes(LiveView.enterSequence)

    static let stopping: [Int32] = [SIGHUP, SIGQUIT]
    static let fatal: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]
    static var all: [Int32] { [SIGWINCH, SIGTSTP] + stopping + fatal }

    static func bytes(_ text: String) -> UnsafeMutableBufferPointer<UInt8> {
        let utf8 = Array(text.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: utf8.count)
        _ = buffer.initialize(from: utf8)
        return buffer
    }

    static func install(wake: WakeUpPipe, screen: Int32) {
        guard !installed else { return }
        // Touch every global here, so no handler ever runs their lazy initialization.
        _ = (previous, leaveScreen, enterScreen, TerminalModes.keyFD, TerminalModes.saved, TerminalModes.keyMode)
        wakeFD = wake.writeEnd.rawValue
        screenFD = screen
        for sig in all { sigaction(sig, nil, previous + Int(sig)) }
        set(SIGWINCH) { _ in ViewSignals.request(.redraw) }
        for sig in stopping where !ignored(previous[Int(sig)]) {
            set(sig) { _ in ViewSignals.request(.stop) }
        }
        set(SIGTSTP) { _ in ViewSignals.suspend() }
        for sig in fatal { set(sig, flags: SA_ONSTACK | SA_NODEFER) { sig in ViewSignals.crashed(sig) } }
        SignalBytes.unblock([SIGWINCH, SIGTSTP] + stopping)
        installed = true
    }

    static func restore() {
        guard installed else { return }
        for sig in all { sigaction(sig, previous + Int(sig), nil) }
        wakeFD = -1
        installed = false
    }

    /// The action is SIG_IGN (a parent such as nohup asked for it).
    static func ignored(_ action: sigaction) -> Bool {
        guard let handler = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func set(_ sig: Int32, flags: Int32 = SA_RESTART, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        sigaction(sig, &action, nil)
    }

    private static func request(_ r: WakeRequest) {
        var byte = r.rawValue
        _ = write(wakeFD, &byte, 1)
    }

    private static func put(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        _ = write(screenFD, buffer.baseAddress, buffer.count)
    }

    /// Ctrl-Z: give the terminal back as found, stop, and take it again on `fg`.
    private static func suspend() {
        let keys = TerminalModes.keyFD
        if keys >= 0 { _ = tcsetattr(keys, TCSANOW, &TerminalModes.saved) }
        put(leaveScreen)
        signal(SIGTSTP, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(SIGTSTP)
        // Continued (fg).
        ViewSignals.set(SIGTSTP) { _ in ViewSignals.suspend() }
        if keys >= 0 { _ = tcsetattr(keys, TCSANOW, &TerminalModes.keyMode) }
        put(enterScreen)
        request(.redraw)
    }

    private static func crashed(_ sig: Int32) {
        TerminalModes.restore()
        put(leaveScreen)
        sigaction(sig, previous + Int(sig), nil)
        raise(sig)
    }
}
