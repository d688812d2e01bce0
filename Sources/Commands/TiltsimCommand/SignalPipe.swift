import SerialIO
import TiltExitStatus

/// Signals turned into bytes on a pipe the run loop polls (SerialIO's
/// SignalBytes, each signal as its own number): SIGINT, SIGTERM, SIGHUP (the
/// terminal closed) and SIGQUIT (Ctrl-\) stop, writing the PNG and the
/// EEPROM as Ctrl-C does; SIGUSR1 writes the PNG. They are unblocked here,
/// before any board thread starts (a parent that waits with sigwait blocks
/// them, and exec keeps the mask).
struct SignalPipe {
    let pipe: WakeUpPipe

    static func install() throws(CommandFailure) -> SignalPipe {
        let pipe: WakeUpPipe
        do { pipe = try WakeUpPipe() } catch { throw .system(error.message) }
        SignalBytes.install([.interrupt, .terminate, .hangUp, .quit, .user1], on: pipe)
        return SignalPipe(pipe: pipe)
    }

    /// Asks the kernel for a SIGTERM when our parent ends, however it ends (a
    /// SIGKILLed `tiltserial demo` would otherwise leave its board running,
    /// holding a pty nobody reads). The kernel watches the thread that started
    /// us: tiltserial starts tiltsim from its main thread. A parent already gone
    /// (we were handed to init, pid 1) stops us at once.
    static func stopWhenParentEnds() {
        ProcessEnvironment.signalWhenParentEnds(.terminate)
    }

    /// Unblocks `signals` on this thread (threads started later inherit it).
    static func unblock(_ signals: [Signal]) { Signal.unblock(signals) }

    /// Waits up to `timeout`; returns the signals that came.
    func wait(timeout: Duration) -> [Signal] {
        guard pipe.wait(timeout: timeout) else { return [] }
        var signals: [Signal] = []
        pipe.drain { signals.append(Signal(rawValue: Int32($0))) }
        return signals
    }
}
