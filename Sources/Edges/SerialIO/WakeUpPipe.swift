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

    /// Makes the next (or current) wait return `.wokenUp`. A full pipe already wakes, so errors are ignored.
    public func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd.rawValue, &byte, 1)
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
