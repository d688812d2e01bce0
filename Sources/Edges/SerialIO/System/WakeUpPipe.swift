#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// A self-pipe to interrupt `SerialTransport.wait(timeout:orWakeUp:)` from
/// another thread or a signal handler (Ctrl-C, shutdown).
///
/// Both ends are non-blocking and close-on-exec. `wake()` is one write(2) call and
/// async-signal-safe; a signal handler that cannot capture `self` can write one byte
/// to `writeEnd.rawValue` itself. Wakes stay pending until `reset()` drains them.
public final class WakeUpPipe: Sendable {
    /// Pass this to `wait(timeout:orWakeUp:)`.
    public let readEnd: FileDescriptor
    /// Write any byte here to wake the waiter.
    public let writeEnd: FileDescriptor

    /// Makes the pipe (pipe2 with O_NONBLOCK and O_CLOEXEC); throws `.ioError` when the process is out of descriptors.
    public init() throws(SerialError) {
        do {
            (readEnd, writeEnd) = try FileDescriptor.pipe(options: [.nonBlocking, .closeOnExec])
        } catch {
            throw .ioError(port: "wake-up pipe", operation: "pipe2", errno: error)
        }
    }

    /// What a byte on the pipe asks the loop that waits on it for. `wake()`,
    /// Ctrl-C and SIGTERM write `.stop`; tiltserial's live view writes the
    /// others (its keys, SIGWINCH); tiltsim's signals write their own numbers.
    public enum Request: UInt8, Sendable {
        /// Stop the run (what `wake()` writes).
        case stop = 1
        /// Redraw the view now (the terminal was resized or the run continued after Ctrl-Z).
        case redraw = 2
        /// Make the current pose the rest pose (the view's `c`).
        case recalibrate = 3
        /// The run continued after Ctrl-Z (`fg`): redraw, and the time it was
        /// stopped is the host's own silence, not the board's.
        case resumed = 4
    }

    /// Makes the next (or current) wait return `.wokenUp` with a stop request.
    /// A full pipe already wakes, so errors are ignored.
    public func wake() { send(Request.stop.rawValue) }

    /// Writes `request` (one write(2): async-signal-safe, safe from any thread).
    public func send(_ request: Request) { send(request.rawValue) }

    /// Writes one byte, `request` or a signal's number (errors ignored, as for `wake()`).
    public func send(_ byte: UInt8) {
        var byte = byte
        _ = Glibc.write(writeEnd.rawValue, &byte, 1)
    }

    /// Reads every byte pending now, in order, into `each` (EINTR retried);
    /// false when none was. Unlike `reset()` it hands the bytes over.
    @discardableResult
    public func drain(_ each: (UInt8) -> Void) -> Bool {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var sawAny = false
        while true {
            let n = withUnsafeMutableBytes(of: &bytes) { Glibc.read(readEnd.rawValue, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return sawAny }
            sawAny = true
            withUnsafeBytes(of: &bytes) { raw in raw.prefix(n).forEach(each) }
        }
    }

    /// Waits on the pipe alone (a doze between ticks, or no port open) for at
    /// most `timeout`; true when a wake-up came. ppoll keeps the timeout to the
    /// µs: poll(2)'s whole milliseconds overslept a doze meant to end 200 µs
    /// before the tick's sample by up to 0.8 ms (issue 19: 526 µs tick latency
    /// at 100 Hz against the bare echo's 112 µs). A signal ends the wait early
    /// without a wake-up; the caller re-checks its state, as after any wait.
    public func wait(timeout: Duration) -> Bool {
        let micros = Int(clamping: timeout.wholeMicros)  // never negative: that would wait forever
        switch pollTwo(readEnd.rawValue, .readable, wake: nil, timeoutMicros: micros) {
        case .success(let events?): return !events.0.isEmpty
        case .success(nil), .failure: return false
        }
    }

    /// Consumes pending wake-ups.
    public func reset() {
        var sink = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &sink, { Glibc.read(readEnd.rawValue, $0.baseAddress, $0.count) }) > 0 {}
    }

    deinit {
        _ = Glibc.close(readEnd.rawValue)
        _ = Glibc.close(writeEnd.rawValue)
    }
}
