#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The descriptor and byte the handler writes (a signal handler cannot capture);
/// `signalByte` < 0: write the signal's own number.
nonisolated(unsafe) private var signalDescriptor: Int32 = -1
nonisolated(unsafe) private var signalByte: Int32 = -1

/// Signals turned into bytes on a `WakeUpPipe` the run loop polls, for both
/// tools: the handler only write(2)s one byte (async-signal-safe), so the loop
/// can close its port and print its summary instead of dying.
public enum SignalBytes {
    /// Sends each of `signals` to `pipe` as `byte`, or as the signal's number when
    /// `byte` is nil (a loop that tells them apart), and unblocks them on this
    /// thread: a parent may have left them blocked (a process inherits its
    /// parent's mask across exec; a test runner's threads block them), and they
    /// would never arrive. One pipe at a time per process.
    public static func install(_ signals: [Int32], on pipe: WakeUpPipe, byte: UInt8? = nil) {
        signalDescriptor = pipe.writeEnd.rawValue
        signalByte = byte.map(Int32.init) ?? -1
        for sig in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var out = UInt8(truncatingIfNeeded: signalByte >= 0 ? signalByte : number)
                _ = write(signalDescriptor, &out, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
        unblock(signals)
    }

    /// Unblocks `signals` for the calling thread (and the threads it starts later).
    public static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in signals { sigaddset(&set, sig) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Gives `signals` their default action back and forgets the pipe.
    public static func restore(_ signals: [Int32]) {
        for sig in signals { signal(sig, SIG_DFL) }
        signalDescriptor = -1
    }
}
