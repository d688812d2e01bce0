#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child we started, with a pidfd (Linux 5.3+, glibc 2.36's `pidfd_open`):
/// a descriptor that becomes readable when the child exits, so waiting for
/// children with a deadline is one `poll`, not a loop of `waitpid(WNOHANG)`
/// and sleeps, and needs no SIGCHLD handler (which would be process-wide).
public struct ChildProcess: Sendable {
    /// The child's process id (its process group's too, when spawned by `ProcessSpawn`).
    public let pid: Int32
    /// -1 when pidfds are unavailable (older kernel or libc).
    let exitDescriptor: CInt

    /// Watches child `pid` (spawned by us, not reaped yet).
    public init(pid: Int32) {
        self.pid = pid
        // The child stays a zombie until we reap it, so its pid cannot be reused before this call.
        exitDescriptor = Self.pidfdOpen.map { $0(pid, 0) } ?? -1  // pidfds are always close-on-exec
    }

    /// How a reaped child ended.
    public enum Ending: Sendable, Equatable {
        /// exit(code).
        case exited(code: Int32)
        /// Ended by this signal number.
        case signalled(Int32)
    }

    /// Reaps the child if it has ended (never blocks); nil while it runs.
    /// Closes the pidfd once reaped.
    public func reapIfEnded() -> Ending? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == 0 || (r == -1 && errno == EINTR) { return nil }
        if exitDescriptor >= 0 { _ = close(exitDescriptor) }
        // r == -1 (ECHILD): someone else reaped it; count it as ended.
        guard r == pid else { return .exited(code: 0) }
        let signal = status & 0x7f
        return signal == 0 ? .exited(code: (status >> 8) & 0xff) : .signalled(signal)
    }

    /// Sends `signal` to the child's process group (hooks run as group leaders,
    /// so a shell's own children go too), or to the child alone if the group is gone.
    public func send(_ signal: Signal) {
        if kill(-pid, signal.rawValue) != 0 { _ = kill(pid, signal.rawValue) }
    }

    /// Waits for the child to end and reaps it (blocking: after SIGKILL).
    public func waitUntilEnded() {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        if exitDescriptor >= 0 { _ = close(exitDescriptor) }
    }

    /// Waits until one of `children` may have ended or `timeout` passed.
    /// Without pidfds it naps 10 ms instead (bounded, never a busy spin).
    public static func waitForAnExit(_ children: [ChildProcess], timeout: Duration) {
        let timeoutMicros = Int(clamping: timeout.wholeMicros)
        guard timeoutMicros > 0 else { return }
        var fds = children.map { pollfd(fd: $0.exitDescriptor, events: Int16(POLLIN), revents: 0) }
        if fds.contains(where: { $0.fd < 0 }) {
            var nap = timespec(tv_sec: 0, tv_nsec: min(timeoutMicros, 10_000) * 1000)
            _ = nanosleep(&nap, nil)
            return
        }
        _ = poll(&fds, nfds_t(fds.count), Int32(clamping: (timeoutMicros + 999) / 1000))
    }

    /// glibc 2.36's wrapper, looked up at run time so older systems fall back.
    private static let pidfdOpen: (@convention(c) (Int32, UInt32) -> CInt)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UInt32) -> CInt).self)
    }()
}
