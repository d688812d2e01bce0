#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The descriptor and byte the handler writes (a signal handler cannot capture);
/// `signalByte` < 0: write the signal's own number.
nonisolated(unsafe) private var signalDescriptor: Int32 = -1
nonisolated(unsafe) private var signalByte: Int32 = -1
/// Set by the handler when it sent a stop request (`interruptsWrites`).
nonisolated(unsafe) private var stopSignalled: Int32 = 0

/// Signals turned into bytes on a `WakeUpPipe` the run loop polls, the one
/// installer both tools use: the handler only write(2)s one byte
/// (async-signal-safe), so the loop can close its port and print its summary
/// instead of dying.
public enum SignalBytes {
    /// Sends each of `signals` to `pipe` as `request`, or as the signal's
    /// number when nil, and unblocks them on this thread: a parent may have
    /// left them blocked (a process inherits its parent's mask across exec; a
    /// test runner's threads block them), and they would never arrive. One
    /// pipe at a time per process.
    ///
    /// With `interruptsWrites`, a blocking call the signal lands in returns
    /// EINTR instead of restarting (no SA_RESTART), and `stopRequested` turns
    /// true: a write to a stdout whose reader stopped reading (`| sleep 60`)
    /// gives up then, where it held the run deaf to Ctrl-C and SIGTERM.
    public static func install(_ signals: [Signal], on pipe: WakeUpPipe, as request: WakeUpPipe.Request? = nil,
                               interruptsWrites: Bool = false) {
        signalDescriptor = pipe.writeEnd.rawValue
        signalByte = request.map { Int32($0.rawValue) } ?? -1
        stopSignalled = 0
        for signal in signals {
            SignalAction.set(signal.rawValue, flags: interruptsWrites ? 0 : SA_RESTART) { number in
                var out = UInt8(truncatingIfNeeded: signalByte >= 0 ? signalByte : number)
                _ = write(signalDescriptor, &out, 1)
                stopSignalled = 1
            }
        }
        Signal.unblock(signals)
    }

    /// A signal installed here has come since the last `install`.
    public static var stopRequested: Bool { stopSignalled != 0 }

    /// Gives `signals` their default action back and forgets the pipe.
    public static func restore(_ signals: [Signal]) {
        for signal in signals { signal.setDefault() }
        signalDescriptor = -1
    }
}
