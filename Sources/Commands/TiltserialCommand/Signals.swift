import SerialIO
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C and SIGTERM wake the run loop through `pipe` as a stop request
/// (SerialIO's SignalBytes), instead of killing the process, so it can close
/// the port and print its summary.
enum StopSignals {
    static func install(_ pipe: WakeUpPipe) {
        SignalBytes.install([SIGINT, SIGTERM], on: pipe, byte: WakeRequest.stop.rawValue)
    }

    static func restore() { SignalBytes.restore([SIGINT, SIGTERM]) }
}
