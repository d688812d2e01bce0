import Foundation
import SerialIO
#if canImport(Glibc)
import Glibc
#endif

/// Signals turned into bytes on a pipe the run loop polls: SIGINT/SIGTERM stop,
/// SIGUSR1 writes the PNG. The handler only write(2)s the signal number.
/// A process inherits its parent's blocked signals across exec (a parent that
/// waits for signals with sigwait, as many do, blocks them): they are
/// unblocked here, before any board thread starts, or nothing could stop us.
struct SignalPipe {
    let pipe: WakeUpPipe

    nonisolated(unsafe) static var writeEnd: Int32 = -1

    static func install() throws(TiltsimFailure) -> SignalPipe {
        let pipe: WakeUpPipe
        do { pipe = try WakeUpPipe() } catch { throw .system(error.message) }
        writeEnd = pipe.writeEnd.rawValue
        for signal in [SIGINT, SIGTERM, SIGUSR1] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = Glibc.write(SignalPipe.writeEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        unblock([SIGINT, SIGTERM, SIGUSR1])
        return SignalPipe(pipe: pipe)
    }

    /// Unblocks `signals` on this thread (threads started later inherit it).
    static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Waits up to `timeoutMillis` (negative: forever); returns the signals that came.
    func wait(timeoutMillis: Int32) -> [Int32] {
        var fd = pollfd(fd: pipe.readEnd.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, timeoutMillis) > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(pipe.readEnd.rawValue, &bytes, bytes.count)
        return n > 0 ? bytes[0..<n].map { Int32($0) } : []
    }
}
