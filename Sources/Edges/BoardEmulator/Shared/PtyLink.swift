import SerialIO
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The board's end of its serial cable, for both engines: SerialIO's
/// pseudo-terminal. With the slave not held open (`.never`: the AVR board, and
/// the native one that resets on connect) the master polls as hung up whenever
/// no client has the slave open: that is how a board knows a host opened the
/// port (to power on, or reset like DTR) and that nobody is listening (output
/// dropped, counted); `SlaveOpenWatch` adds the hosts that left and came back
/// between two looks. Holding it open (`.always`, or `.afterFirstClient`: the
/// native board without reset on connect) lets output queue in the kernel
/// while no host reads, and survives host restarts; the link then cannot tell
/// a client leaving.
///
/// The optional link is replaced atomically and outlives `close()`, so a host
/// retrying it across a replug never finds it missing; `removeLink()` drops it.
/// A link that still names another running board's pty is not taken over.
final class PtyLink {
    /// What a look found: `visited` is a host that opened the slave and closed
    /// it again since the last look (`stty -F`, a port probe): its open
    /// powers or resets a board as any other does (an Uno's DTR rose).
    enum Change { case none, opened, closed, visited }

    /// When the board's side holds the slave open.
    enum KeepSlave { case never, always, afterFirstClient }

    private let terminal: PseudoTerminal
    private let keep: KeepSlave
    private var slaveKeeper: CInt = -1
    /// Opens and closes of the slave (`.never` only), for a host that left and came back between two looks.
    private let openWatch: SlaveOpenWatch?
    let slavePath: String
    let linkPath: String?
    private(set) var clientConnected = false
    private var isClosed = false

    init(linkPath: String?, keepSlave: KeepSlave = .never) throws(SerialError) {
        terminal = try PseudoTerminal.open(keepSlaveOpen: keepSlave == .always, link: nil)
        slavePath = terminal.slavePath
        self.linkPath = linkPath
        keep = keepSlave
        clientConnected = keepSlave == .always
        openWatch = keepSlave == .never ? SlaveOpenWatch(slavePath: slavePath) : nil
        if let linkPath {
            var existing = stat()
            if lstat(linkPath, &existing) == 0 && (existing.st_mode & S_IFMT) != S_IFLNK {
                terminal.close()
                throw .ioError(port: linkPath, operation: "symlink", errno: .fileExists)  // never replace a real file
            }
            if let holder = Self.runningBoard(at: linkPath, other: slavePath) {
                terminal.close()
                throw .portBusy(port: linkPath, holder: holder)
            }
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

    /// The emulated board whose pty an existing link still names (a tiltsim,
    /// or this process), or nil: no link, a dangling one, one naming `ours`
    /// (the number a board killed before had, given to us now), or one whose
    /// number has since gone to something else (a terminal): those are replaced.
    static func runningBoard(at linkPath: String, other ours: String) -> DeviceOpener? {
        let target = FileSystem.resolved(linkPath)
        guard target != ours,
              let holder = DeviceOpeners.boardSide(of: target) else { return nil }
        return holder.isThisProcess || holder.command == "tiltsim" ? holder : nil
    }

    /// The baud rate the client set on its end (nil: closed, or not a standard rate).
    var clientBaud: Int? { isClosed ? nil : terminal.clientBaud }

    /// The speed a client that sets none finds (a new pty says 38400).
    func setDefaultBaud(_ baud: Int) { if !isClosed { terminal.setBaud(baud) } }

    /// The master's descriptor, -1 once closed.
    var fd: Int32 { isClosed ? -1 : terminal.master.fileDescriptor.rawValue }

    /// Looks (without waiting) whether a client opened or closed the slave since
    /// the last look: `.opened` too for one that closed it and opened it again
    /// meanwhile, `.visited` for one that came and went (`.never`). A client
    /// that leaves has its unread bytes flushed, so the next one sees no stale output.
    func poll() -> Change {
        guard !isClosed, keep == .never || !clientConnected else { return .none }
        let news = openWatch?.take()
        // No open or close since the last look, and none whose hang-up is still to show.
        if let openWatch, news?.anything == false, openWatch.opened == clientConnected { return .none }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = Glibc.poll(&descriptor, 1, 0)
        let hungUp = descriptor.revents & Int16(POLLHUP) != 0
        openWatch?.settle(connected: !hungUp)
        if hungUp == !clientConnected {
            guard news?.firstOpen == true else { return .none }
            if !clientConnected { return .visited }
            _ = tcflush(fd, TCOFLUSH)  // what went to the host that left; the new one's first bytes stay
            return .opened
        }
        clientConnected = !hungUp
        if hungUp { _ = tcflush(fd, TCIOFLUSH) }
        if !hungUp && keep == .afterFirstClient {
            // From now on hold the slave ourselves, as `.always` does from the start.
            slaveKeeper = open(slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        }
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
        if slaveKeeper >= 0 { Glibc.close(slaveKeeper) }
        slaveKeeper = -1
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
