import SerialIO

/// Ctrl-C and SIGTERM wake the run loop through `pipe` as a stop request
/// (SerialIO's SignalBytes), instead of killing the process, so it can close
/// the port and print its summary.
enum StopSignals {
    static func install(_ pipe: WakeUpPipe) {
        SignalBytes.install([.interrupt, .terminate], on: pipe, as: .stop)
    }

    static func restore() { SignalBytes.restore([.interrupt, .terminate]) }
}
