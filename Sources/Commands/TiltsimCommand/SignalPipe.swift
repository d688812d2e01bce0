import CSerialShims
import Foundation
import SerialIO
#if canImport(Glibc)
import Glibc
#endif

/// Signals turned into bytes on a pipe the run loop polls (SerialIO's
/// SignalBytes, each signal as its own number): SIGINT/SIGTERM stop, SIGUSR1
/// writes the PNG. They are unblocked here, before any board thread starts
/// (a parent that waits with sigwait blocks them, and exec keeps the mask).
struct SignalPipe {
    let pipe: WakeUpPipe

    static func install() throws(TiltsimFailure) -> SignalPipe {
        let pipe: WakeUpPipe
        do { pipe = try WakeUpPipe() } catch { throw .system(error.message) }
        SignalBytes.install([SIGINT, SIGTERM, SIGUSR1], on: pipe)
        return SignalPipe(pipe: pipe)
    }

    /// Asks the kernel for a SIGTERM when our parent ends, however it ends (a
    /// SIGKILLed `tiltserial demo` would otherwise leave its board running,
    /// holding a pty nobody reads). The kernel watches the thread that started
    /// us: tiltserial starts tiltsim from its main thread. A parent already gone
    /// (we were handed to init, pid 1) stops us at once.
    static func stopWhenParentEnds() {
        _ = cserial_set_parent_death_signal(SIGTERM)
        if getppid() == 1 { _ = raise(SIGTERM) }
    }

    /// Unblocks `signals` on this thread (threads started later inherit it).
    static func unblock(_ signals: [Int32]) { SignalBytes.unblock(signals) }

    /// Waits up to `timeoutMillis` (negative: forever); returns the signals that came.
    func wait(timeoutMillis: Int32) -> [Int32] {
        var fd = pollfd(fd: pipe.readEnd.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, timeoutMillis) > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(pipe.readEnd.rawValue, &bytes, bytes.count)
        return n > 0 ? bytes[0..<n].map { Int32($0) } : []
    }
}
