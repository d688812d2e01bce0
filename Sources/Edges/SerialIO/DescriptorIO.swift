#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage
import TiltCore

/// The read/write discipline both transports share, over any "raw" read and write
/// (plain read(2)/write(2) for ptys, libserialport's non-blocking calls for ports).
///
/// Why: with VMIN=0/VTIME=0 (what libserialport and our termios path set) a read of
/// 0 bytes means either "nothing yet" or end of file, and libserialport also turns
/// EAGAIN into 0. Only on that empty path we ask poll once (timeout 0): hang-up/error,
/// or "readable" yet still 0 bytes, is a device that went away. Reads that return
/// data cost a single syscall; an unplugged device can never make a loop spin.
struct DescriptorIO: Sendable {
    let fd: CInt
    let name: String
    let writeTimeout: Duration

    func read(
        into buffer: UnsafeMutableRawBufferPointer,
        raw: (UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
    ) throws(SerialError) -> Int {
        guard buffer.count > 0 else { return 0 }
        switch raw(buffer) {
        case .success(let n) where n > 0: return n
        case .success: break
        case .failure(.wouldBlock), .failure(.interrupted): return 0
        case .failure(let e): throw failure(e, "read")
        }
        switch pollTwo(fd, .readable, wake: nil, timeoutMicros: 0) {
        case .failure(let e): throw failure(e, "poll")
        case .success(nil): return 0
        case .success(let (events, _)?):
            if !events.isDisjoint(with: .trouble) { throw .deviceGone(port: name) }
            guard events.contains(.readable) else { return 0 }
        }
        // Readable but the first read came back empty: either bytes arrived in between
        // (then this read returns them) or it is end of file.
        switch raw(buffer) {
        case .success(let n) where n > 0: return n
        case .success: throw .deviceGone(port: name)
        case .failure(.wouldBlock), .failure(.interrupted): return 0
        case .failure(let e): throw failure(e, "read")
        }
    }

    func write(
        _ bytes: UnsafeRawBufferPointer,
        raw: (UnsafeRawBufferPointer) -> Result<Int, Errno>
    ) throws(SerialError) {
        var done = 0
        var deadline: HostTime? = nil  // taken only once we have to wait
        while done < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[done...])
            switch raw(rest) {
            case .success(let n) where n > 0:
                done += n
                continue
            case .success, .failure(.wouldBlock), .failure(.interrupted):
                break
            case .failure(let e):
                throw failure(e, "write")
            }
            let now = MonotonicClock.now()
            let end = deadline ?? now + writeTimeout.wholeMicros
            deadline = end
            guard now < end else { throw .writeTimedOut(port: name, written: done, total: bytes.count) }
            switch pollTwo(fd, .writable, wake: nil, timeoutMicros: Int(clamping: end.micros(since: now))) {
            case .failure(let e): throw failure(e, "poll")
            case .success(nil): continue
            case .success(let (events, _)?):
                if !events.contains(.writable) && !events.isDisjoint(with: .trouble) {
                    throw .deviceGone(port: name)
                }
            }
        }
    }

    func writeWithoutWaiting(
        _ bytes: UnsafeRawBufferPointer,
        raw: (UnsafeRawBufferPointer) -> Result<Int, Errno>
    ) throws(SerialError) -> Int {
        guard bytes.count > 0 else { return 0 }
        switch raw(bytes) {
        case .success(let n): return n
        case .failure(.wouldBlock), .failure(.interrupted): return 0
        case .failure(let e): throw failure(e, "write")
        }
    }

    /// Errors that mean the device is no longer there become `.deviceGone`.
    func failure(_ e: Errno, _ operation: String) -> SerialError {
        switch e {
        case .ioError, .noSuchAddressOrDevice, .operationNotSupportedByDevice, .badFileDescriptor, .brokenPipe:
            return .deviceGone(port: name)
        default:
            return .ioError(port: name, operation: operation, errno: e)
        }
    }
}
