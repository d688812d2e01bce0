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
