import SerialIO

/// Ctrl-C, SIGTERM, a hang-up (the terminal or ssh session gone) and Ctrl-\
/// wake the run loop through `pipe` as a stop request (SerialIO's
/// SignalBytes), instead of killing the process (or, for SIGQUIT, having
/// Swift's backtracer print a crash report while the run goes on), so it can
/// close the port and print its summary, whether or not the live view is on.
enum StopSignals {
    static let handled: [Signal] = [.interrupt, .terminate, .hangUp, .quit]

    static func install(_ pipe: WakeUpPipe) {
        SignalBytes.install(handled, on: pipe, as: .stop)
    }

    static func restore() { SignalBytes.restore(handled) }
}
