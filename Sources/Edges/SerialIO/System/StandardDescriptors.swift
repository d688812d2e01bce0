#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Descriptors 0, 1 and 2 taken before anything is opened.
///
/// Why: a tool started with one of them closed (`tiltserial <&- >&- 2>&-`,
/// a careless service manager) hands that number to the next thing it
/// opens, and its log lines then go there: into the serial port, or into
/// its own wake-up pipe, where a line read as "stop" ended the run at once
/// with exit 0 (found by an outside tester). Each closed one is opened on
/// /dev/null read-only: stdin reads end of file, as `< /dev/null`, and
/// writes to stdout or stderr fail with EBADF as they did when closed, so
/// `--json` still stops with "writing stdout failed".
public enum StandardDescriptors {
    /// Opens /dev/null on each of 0, 1 and 2 that is closed. Call first thing.
    public static func reserve() {
        for wanted: Int32 in 0...2 where fcntl(wanted, F_GETFD) == -1 && errno == EBADF {
            // The lowest free number is `wanted`: the ones below it are open.
            let fd = open("/dev/null", O_RDONLY)
            if fd >= 0 && fd != wanted {
                _ = dup2(fd, wanted)
                _ = close(fd)
            }
        }
    }
}
