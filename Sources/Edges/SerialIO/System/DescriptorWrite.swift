#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// Writes to a descriptor the tools hold by number (stdout, stderr).
public enum DescriptorWrite {
    /// Writes all of `bytes` to `fd` (EINTR retried); the error that stopped
    /// it (EIO when a write took nothing): `.brokenPipe` is a reader gone.
    /// `givingUp` is asked after an EINTR: true ends the write with `.interrupted`.
    public static func all(_ bytes: UnsafeRawBufferPointer, to fd: Int32, givingUp: () -> Bool = { false }) -> Errno? {
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n > 0 {
                done += n
            } else if n < 0 && errno == EINTR {
                if givingUp() { return .interrupted }
            } else {
                return n == 0 ? .ioError : Errno(rawValue: errno)
            }
        }
        return nil
    }
}
