#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Signals while a full-screen view is up on a terminal, all through the
/// run's wake-up pipe or straight to the terminal (no allocation, no locks in
/// the handlers):
/// - SIGWINCH: a `.redraw` request.
/// - SIGHUP, SIGQUIT (Ctrl-\): a `.stop` request, like Ctrl-C, so the terminal is
///   restored and the summary printed (left alone when the parent ignores them, as nohup does).
/// - SIGTSTP (Ctrl-Z): restore the terminal (`TerminalKeyMode`), leave the
///   view's screen, stop; on `fg`, take the terminal again and ask for a redraw.
/// - SIGCONT after a stop from outside (`kill -STOP`, which cannot be caught):
///   the shell put the terminal back in line mode meanwhile, so `fg` left the
///   view reading keys a line at a time (q did nothing until Enter); take the
///   terminal again and ask for a redraw, as after Ctrl-Z.
/// - SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT (a crash): restore the
///   terminal, then let the previous handler (Swift's backtracer) or the default have it.
public enum TerminalViewSignals {
    nonisolated(unsafe) static var wakeFD: Int32 = -1
    nonisolated(unsafe) static var screenFD: Int32 = -1
    nonisolated(unsafe) static var installed = false
    /// Inside our own Ctrl-Z stop: its continuation takes the terminal back itself.
    nonisolated(unsafe) static var suspending = false
    /// The actions found at install, by signal number.
    nonisolated(unsafe) static var previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    nonisolated(unsafe) static var leaveScreen = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    nonisolated(unsafe) static var enterScreen = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)

    static let stopping: [Int32] = [SIGHUP, SIGQUIT]
    static var all: [Int32] { [SIGWINCH, SIGTSTP, SIGCONT] + stopping + Signal.crashes.map(\.rawValue) }

    /// Installs the handlers (once; again only after `restore`): requests go to
    /// `wake`, `leave` and `enter` (the view's escape sequences) to descriptor `screen`.
    public static func install(wake: WakeUpPipe, screen: Int32, leave: String, enter: String) {
        guard !installed else { return }
        if leaveScreen.baseAddress == nil { leaveScreen = bytes(leave) }  // the view's constants: made once
        if enterScreen.baseAddress == nil { enterScreen = bytes(enter) }
        // Touch every global here, so no handler ever runs their lazy initialization.
        _ = (previous, leaveScreen, enterScreen, suspending)
        TerminalKeyMode.prepare()
        wakeFD = wake.writeEnd.rawValue
        screenFD = screen
        for sig in all { SignalAction.save(sig, into: previous + Int(sig)) }
        SignalAction.set(SIGWINCH) { _ in TerminalViewSignals.request(.redraw) }
        for sig in stopping where !SignalAction.ignored(previous[Int(sig)]) {
            SignalAction.set(sig) { _ in TerminalViewSignals.request(.stop) }
        }
        SignalAction.set(SIGTSTP) { _ in TerminalViewSignals.suspend() }
        SignalAction.set(SIGCONT) { _ in TerminalViewSignals.continued() }
        for sig in Signal.crashes.map(\.rawValue) {
            SignalAction.set(sig, flags: SA_ONSTACK | SA_NODEFER) { sig in TerminalViewSignals.crashed(sig) }
        }
        Signal.unblock(([SIGWINCH, SIGTSTP, SIGCONT] + stopping).map(Signal.init(rawValue:)))
        installed = true
    }

    /// Puts back the actions found at install.
    public static func restore() {
        guard installed else { return }
        for sig in all { SignalAction.restore(sig, from: previous + Int(sig)) }
        wakeFD = -1
        installed = false
    }

    private static func bytes(_ text: String) -> UnsafeMutableBufferPointer<UInt8> {
        let utf8 = Array(text.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: utf8.count)
        _ = buffer.initialize(from: utf8)
        return buffer
    }

    private static func request(_ r: WakeUpPipe.Request) {
        var byte = r.rawValue
        _ = write(wakeFD, &byte, 1)
    }

    private static func put(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        _ = write(screenFD, buffer.baseAddress, buffer.count)
    }

    /// Ctrl-Z: give the terminal back as found, stop, and take it again on `fg`.
    private static func suspend() {
        TerminalKeyMode.suspend()
        put(leaveScreen)
        signal(SIGTSTP, SIG_DFL)
        Signal.unblock([.terminalStop])
        suspending = true
        raise(SIGTSTP)
        // Continued (fg).
        suspending = false
        SignalAction.set(SIGTSTP) { _ in TerminalViewSignals.suspend() }
        TerminalKeyMode.resume()
        put(enterScreen)
        request(.resumed)
    }

    /// Continued: after Ctrl-Z `suspend` goes on itself; after a stop from
    /// outside, key mode, the view's screen and a redraw again (SIGCONT also
    /// comes to a process that never stopped: then this only redraws).
    private static func continued() {
        guard !suspending else { return }
        TerminalKeyMode.resume()
        put(enterScreen)
        request(.resumed)
    }

    private static func crashed(_ sig: Int32) {
        TerminalKeyMode.restore()
        put(leaveScreen)
        SignalAction.restore(sig, from: previous + Int(sig))
        raise(sig)
    }
}
