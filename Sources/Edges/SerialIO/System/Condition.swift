#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pthread mutex and condition variable: what `CapturedConsole` needs to let
/// a test wait for output. Written here because Foundation's NSCondition would
/// bring Foundation into the host binary (it costs start-up time); the
/// standard library's `Mutex` has no condition to wait on.
public final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A mutex and a condition whose timed waits use the monotonic clock.
    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)  // deadlines immune to clock changes
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` with the mutex held, then wakes every waiter.
    public func changing(_ body: () -> Void) {
        withLock(body)
        pthread_cond_broadcast(condition)
    }

    /// Waits, the mutex held, until `predicate` holds (true) or `timeout` has passed (false).
    public func wait(timeout: Duration, until predicate: () -> Bool) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = max(timeout, .zero).components
        let nanos = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanos / 1_000_000_000
        deadline.tv_nsec = nanos % 1_000_000_000
        return withLock {
            while !predicate() {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return predicate() }
            }
            return true
        }
    }
}
