#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A signal by name, for code that may not import the C library (Commands):
/// the numbers are the platform's.
public struct Signal: RawRepresentable, Hashable, Sendable {
    /// The platform's signal number.
    public let rawValue: Int32
    /// A signal from its platform number (what a signal byte on a pipe carries).
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// SIGINT: Ctrl-C.
    public static let interrupt = Signal(rawValue: SIGINT)
    /// SIGTERM: asked to end.
    public static let terminate = Signal(rawValue: SIGTERM)
    /// SIGHUP: the terminal hung up.
    public static let hangUp = Signal(rawValue: SIGHUP)
    /// SIGQUIT: Ctrl-\.
    public static let quit = Signal(rawValue: SIGQUIT)
    /// SIGKILL: cannot be caught.
    public static let kill = Signal(rawValue: SIGKILL)
    /// SIGPIPE: a write to a pipe nobody reads.
    public static let brokenPipe = Signal(rawValue: SIGPIPE)
    /// SIGCHLD: a child ended or stopped.
    public static let child = Signal(rawValue: SIGCHLD)
    /// SIGUSR1: tiltsim writes its PNG.
    public static let user1 = Signal(rawValue: SIGUSR1)
    /// SIGUSR2.
    public static let user2 = Signal(rawValue: SIGUSR2)
    /// SIGALRM, SIGVTALRM, SIGPROF: timers a process did not ask for end it by default.
    public static let timers: [Signal] = [SIGALRM, SIGVTALRM, SIGPROF].map(Signal.init(rawValue:))
    /// SIGXCPU: the CPU time limit (`ulimit -t`) reached.
    public static let cpuLimit = Signal(rawValue: SIGXCPU)
    /// SIGXFSZ: a write past the file size limit (`ulimit -f`); ignored, the write fails with EFBIG.
    public static let fileSizeLimit = Signal(rawValue: SIGXFSZ)
    /// SIGWINCH: the terminal's size changed.
    public static let windowChanged = Signal(rawValue: SIGWINCH)
    /// SIGTSTP: Ctrl-Z.
    public static let terminalStop = Signal(rawValue: SIGTSTP)
    /// The crashes (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT).
    public static let crashes: [Signal] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT].map(Signal.init(rawValue:))

    /// Sends this signal to the calling thread (raise(3)).
    public func raise() { _ = Glibc.raise(rawValue) }

    /// Ignores this signal from now on (SIG_IGN; a child gets it ignored too unless spawned with it as default).
    public func ignore() { _ = Glibc.signal(rawValue, SIG_IGN) }

    /// Gives this signal its default action back (SIG_DFL).
    public func setDefault() { _ = Glibc.signal(rawValue, SIG_DFL) }

    /// Unblocks `signals` for the calling thread (and the threads it starts later).
    public static func unblock(_ signals: [Signal]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal.rawValue) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// sigaction(2) for the installers here (`SignalBytes`, `TerminalViewSignals`):
/// a plain handler, the actions found before, and whether one was SIG_IGN.
enum SignalAction {
    /// Installs `handler` for `signal` with `flags` (SA_RESTART unless told), nothing masked.
    static func set(_ signal: Int32, flags: Int32 = SA_RESTART, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        sigaction(signal, &action, nil)
    }

    /// The action in force for `signal`, into `saved`.
    static func save(_ signal: Int32, into saved: UnsafeMutablePointer<sigaction>) { sigaction(signal, nil, saved) }

    /// Puts back an action saved with `save` (async-signal-safe).
    static func restore(_ signal: Int32, from saved: UnsafeMutablePointer<sigaction>) { sigaction(signal, saved, nil) }

    /// The action is SIG_IGN (a parent such as nohup asked for it).
    static func ignored(_ action: sigaction) -> Bool {
        guard let handler = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
