import SerialIO
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The board's end of its serial cable: SerialIO's pseudo-terminal, with the
/// slave not held open, so the master polls as hung up whenever no client has
/// the slave open. That is how a board knows a host opened the port (to power
/// on, or reset like DTR) and that nobody is listening (output dropped, counted).
///
/// The optional link is replaced atomically and outlives `close()`, so a host
/// retrying it across a replug never finds it missing; `removeLink()` drops it.
final class PtyLink {
    enum Change { case none, opened, closed }

    private let terminal: PseudoTerminal
    let slavePath: String
    let linkPath: String?
    private(set) var clientConnected = false
    private var isClosed = false

    init(linkPath: String?) throws(SerialError) {
        terminal = try PseudoTerminal.open(keepSlaveOpen: false, link: nil)
        slavePath = terminal.slavePath
        self.linkPath = linkPath
        if let linkPath {
            let temporary = linkPath + ".tmp\(getpid())"
            unlink(temporary)
            guard symlink(slavePath, temporary) == 0, rename(temporary, linkPath) == 0 else {
                let code = errno
                unlink(temporary)
                terminal.close()
                throw .ioError(port: linkPath, operation: "symlink", errno: Errno(rawValue: code))
            }
        }
    }

    deinit { close() }

    /// The master's descriptor, -1 once closed.
    var fd: Int32 { isClosed ? -1 : terminal.master.fileDescriptor.rawValue }

    /// Looks (without waiting) whether a client opened or closed the slave since
    /// the last look. A client that leaves has its unread bytes flushed, so the
    /// next one sees no stale output.
    func poll() -> Change {
        guard !isClosed else { return .none }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = Glibc.poll(&descriptor, 1, 0)
        let hungUp = descriptor.revents & Int16(POLLHUP) != 0
        if hungUp == !clientConnected { return .none }
        clientConnected = !hungUp
        if hungUp { _ = tcflush(fd, TCIOFLUSH) }
        return hungUp ? .closed : .opened
    }

    /// Reads what the client sent, up to `buffer.count`; 0 when nothing is there.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard clientConnected, !isClosed, buffer.count > 0 else { return 0 }
        let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
        return max(0, n)
    }

    /// Writes without waiting; returns how many bytes the kernel took.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard clientConnected, !isClosed, bytes.count > 0 else { return 0 }
        return max(0, Glibc.write(fd, bytes.baseAddress, bytes.count))
    }

    /// Hangs up: the client's reads end (EIO) and the slave path disappears. The link stays.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        clientConnected = false
        terminal.close()
    }

    /// Removes the link if it still points at this pty.
    func removeLink() {
        guard let linkPath else { return }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(linkPath, &buffer, buffer.count - 1)
        if n > 0, String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) == slavePath {
            unlink(linkPath)
        }
    }
}
