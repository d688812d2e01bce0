import CSerialShims
import Foundation
import SerialIO
#if canImport(Glibc)
import Glibc
#endif

/// The thread a board runs on, for both engines: it calls `iterate` until that
/// returns false, and waits between calls in `ppoll` on a wake pipe (commands,
/// stop) and at most one descriptor (the pty). The closure should hold its
/// board weakly, so dropping the last reference ends the thread.
final class BoardThread: @unchecked Sendable {
    let wake: WakeUpPipe
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    init() throws(SerialError) {
        wake = try WakeUpPipe()
    }

    var isStarted: Bool { thread != nil }
    var isCurrent: Bool { thread.map { $0 == Thread.current } ?? false }

    /// Starts the thread (once).
    func start(name: String, _ iterate: @escaping @Sendable () -> Bool) {
        guard thread == nil else { return }
        let finished = finished
        let thread = Thread {
            while iterate() {}
            finished.signal()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    /// Wakes the thread (a command, or stop: `iterate` then returns false).
    func wakeUp() { wake.wake() }

    /// Waits for a started thread to end; call after making `iterate` return false and waking it.
    func join() {
        guard thread != nil, !isCurrent else { return }
        finished.wait()
        finished.signal()  // a second join returns too
    }

    /// Waits until woken, `fd` (if ≥ 0) has `events`, or `timeoutMicros` pass
    /// (negative: no limit). A hung-up or invalid descriptor would poll ready at
    /// once forever: such a wait is paced by the timeout instead.
    func wait(fd: CInt, events: Int16, timeoutMicros: Int) {
        var fds = (pollfd(fd: wake.readEnd.rawValue, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: fd, events: events, revents: 0))
        let count: nfds_t = fd >= 0 ? 2 : 1
        var spec = timespec(tv_sec: timeoutMicros / 1_000_000, tv_nsec: (timeoutMicros % 1_000_000) * 1000)
        _ = withUnsafeMutableBytes(of: &fds) { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: pollfd.self)
            return timeoutMicros < 0 ? cserial_ppoll(base, count, nil) : cserial_ppoll(base, count, &spec)
        }
        if fds.0.revents != 0 { wake.reset() }
        if fd >= 0, fds.1.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0, timeoutMicros > 0 {
            var rest = timespec(tv_sec: 0, tv_nsec: min(timeoutMicros, 10_000) * 1000)
            _ = nanosleep(&rest, nil)
        }
    }
}
