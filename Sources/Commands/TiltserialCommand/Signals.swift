import SerialIO

/// Ctrl-C, SIGTERM, a hang-up (the terminal or ssh session gone) and Ctrl-\
/// wake the run loop through `pipe` as a stop request (SerialIO's
/// SignalBytes), instead of killing the process (or, for SIGQUIT, having
/// Swift's backtracer print a crash report while the run goes on), so it can
/// close the port and print its summary, whether or not the live view is on.
/// So do the other signals whose default is to end the process and that a
/// user or a limit may send (SIGUSR1, which tiltsim takes for its PNG, a
/// `pkill -USR1 tilt` away; SIGALRM, SIGXCPU…): they left the terminal raw,
/// in the alternate screen, with no summary.
enum StopSignals {
    static let handled: [Signal] = [.interrupt, .terminate, .hangUp, .quit, .user1, .user2, .cpuLimit] + Signal.timers

    /// A stop also interrupts a write stdout's reader is not taking (`SignalBytes`).
    static func install(_ pipe: WakeUpPipe) {
        SignalBytes.install(handled, on: pipe, as: .stop, interruptsWrites: true)
    }

    static func restore() { SignalBytes.restore(handled) }
}
