#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The board's end of a pseudo-terminal: the master side, raw, non-blocking.
///
/// Private stand-in for SerialIO's pseudo-terminal until that lands; the
/// emulator only needs `fd`, `slavePath` and `close()`, so it is easy to swap.
/// The slave is not held open: when no client has it open, the master polls
/// as hung up, which is how the bridge knows nobody is listening.
final class AVRPseudoTerminal {
    private(set) var fd: Int32
    let slavePath: String
    /// A symlink kept pointing at `slavePath`, if asked for.
    let linkPath: String?

    init(linkPath: String? = nil) throws(AVRBoardError) {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else {
            throw .pseudoTerminal("openpty failed: \(String(cString: strerror(errno)))")
        }
        defer { Glibc.close(slave) }
        var attributes = termios()
        if tcgetattr(slave, &attributes) == 0 {
            cfmakeraw(&attributes)  // no echo, no line editing, no CR/LF translation
            _ = tcsetattr(slave, TCSANOW, &attributes)
        }
        // ttyname_r: ttyname's static buffer is shared by boards made on other threads.
        var name = [CChar](repeating: 0, count: 256)
        let failed = ttyname_r(slave, &name, name.count)
        guard failed == 0 else {
            Glibc.close(master)
            throw .pseudoTerminal("ttyname failed: \(String(cString: strerror(failed)))")
        }
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        fd = master
        self.linkPath = linkPath
        if let linkPath {
            // Replace atomically: a client retrying the link never sees it missing.
            let temporary = linkPath + ".tmp\(getpid())"
            unlink(temporary)
            guard symlink(slavePath, temporary) == 0, rename(temporary, linkPath) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                Glibc.close(master)
                fd = -1
                throw .pseudoTerminal("cannot link \(linkPath) to \(slavePath): \(reason); pick a writable path")
            }
        }
    }

    /// Hangs up: the client's reads end (EIO) and the slave path disappears.
    /// The link stays (a replug points it at the new slave), `removeLink` drops it.
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    func removeLink() {
        guard let linkPath else { return }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(linkPath, &buffer, buffer.count - 1)
        // Only remove it if it is still ours.
        if n > 0, String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) == slavePath {
            unlink(linkPath)
        }
    }

    deinit { close() }
}
