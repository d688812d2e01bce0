#if canImport(Glibc)
import Glibc
#endif
import SerialIO

/// The descriptor the SIGINT/SIGTERM handler writes to (a signal handler cannot capture).
nonisolated(unsafe) private var signalWakeDescriptor: Int32 = -1

/// Ctrl-C and SIGTERM wake the run loop through `pipe` instead of killing the
/// process, so it can close the port and print its summary.
enum StopSignals {
    static func install(_ pipe: WakeUpPipe) {
        signalWakeDescriptor = pipe.writeEnd.rawValue
        for sig in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = Glibc.write(signalWakeDescriptor, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
        // A parent may have left them blocked (a thread of a test runner does); they would never arrive.
        unblock([SIGINT, SIGTERM])
    }

    /// Unblocks `signals` for the calling thread (and the threads it starts later).
    static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in signals { sigaddset(&set, sig) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func restore() {
        for sig in [SIGINT, SIGTERM] { signal(sig, SIG_DFL) }
        signalWakeDescriptor = -1
    }
}
