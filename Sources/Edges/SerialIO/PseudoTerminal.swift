#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import SystemPackage

/// A pseudo-terminal pair for the emulator, tests and benchmarks: the "board" side
/// drives `master`, the host opens `slavePath` like a serial port.
///
/// Both sides are in raw mode (no echo, no line editing, no CR/LF translation).
///
/// Keeping the slave open (`keepSlaveOpen: true`, the default): the master then never
/// sees EIO/hang-up while no host has the slave open, so an emulator can start before
/// its host and survive host restarts. The price: the master cannot tell when a host
/// disconnects, and bytes it writes with no host reading pile up in the kernel buffer
/// (a few KB) until `write` times out with `.writeTimedOut`. With `keepSlaveOpen:
/// false`, reads on the master report `.deviceGone` whenever no one has the slave open,
/// including before the first host opens it.
public final class PseudoTerminal: Sendable {
    /// The board side. Reads what the host writes; writes what the host reads.
    public let master: TermiosTransport
    /// The path a host opens, e.g. /dev/pts/3.
    public let slavePath: String
    /// The symlink created for `--link PATH`, if any (removed by `close`).
    public let linkPath: String?
    private let slaveKeeper: CInt
    private let closed = Atomic(false)

    /// The baud rate the slave's side asked for (what its client set, or
    /// what `setBaud` set): a pty's master reads the slave's termios. nil
    /// for a rate outside the standard ones.
    public var clientBaud: Int? {
        guard case .success(let t) = getTermios(master.fileDescriptor.rawValue) else { return nil }
        var copy = t
        return baudRate(cfgetospeed(&copy))
    }

    /// Sets the speed a client that sets none sees (a new pty says 38400).
    public func setBaud(_ baud: Int) {
        guard let speed = termiosSpeed(baud), case .success(var t) = getTermios(master.fileDescriptor.rawValue) else { return }
        cfsetispeed(&t, speed)
        cfsetospeed(&t, speed)
        _ = setTermios(master.fileDescriptor.rawValue, t)
    }

    /// The path of the terminal open on `fd` (ttyname_r: `ttyname` shares one
    /// static buffer between threads, and tests open ptys in parallel). Nil with
    /// `errno` set when `fd` is not a terminal.
    public static func terminalName(_ fd: CInt) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let failure = ttyname_r(fd, &buffer, buffer.count)
        guard failure == 0 else {
            errno = failure
            return nil
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Opens a new pair.
    /// - Parameters:
    ///   - keepSlaveOpen: hold a slave descriptor open for the pair's lifetime (see above).
    ///   - link: create a symlink at this path pointing to the slave; an existing
    ///     symlink there is replaced, any other existing file is an error.
    ///   - writeTimeout: bound for a master write while the host is not reading.
    public static func open(
        keepSlaveOpen: Bool = true, link: String? = nil, writeTimeout: Duration = .seconds(2)
    ) throws(SerialError) -> PseudoTerminal {
        var master: CInt = -1
        var slave: CInt = -1
        if case .failure(let e) = valueOrErrno({ openpty(&master, &slave, nil, nil, nil) }) {
            throw .ioError(port: "pseudo-terminal", operation: "openpty", errno: e)
        }
        guard let path = Self.terminalName(slave) else {
            let e = errno
            _ = Glibc.close(master); _ = Glibc.close(slave)
            throw .ioError(port: "pseudo-terminal", operation: "ttyname", errno: Errno(rawValue: e))
        }
        for fd in [master, slave] {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if case .success(var t) = getTermios(fd) {
                cfmakeraw(&t)
                t.c_cflag |= tcflag_t(CLOCAL | CREAD)
                _ = setTermios(fd, t)
            }
        }
        if let link {
            if case .failure(let e) = replaceSymlink(at: link, to: path) {
                _ = Glibc.close(master); _ = Glibc.close(slave)
                throw .ioError(port: link, operation: "symlink", errno: e)
            }
        }
        if !keepSlaveOpen { _ = Glibc.close(slave) }
        return PseudoTerminal(
            master: TermiosTransport(adopting: FileDescriptor(rawValue: master), name: "\(path) (master)",
                                     writeTimeout: writeTimeout),
            slavePath: path, linkPath: link, slaveKeeper: keepSlaveOpen ? slave : -1)
    }

    private init(master: TermiosTransport, slavePath: String, linkPath: String?, slaveKeeper: CInt) {
        self.master = master
        self.slavePath = slavePath
        self.linkPath = linkPath
        self.slaveKeeper = slaveKeeper
    }

    /// Closes the master (hosts then read `.deviceGone`), the kept slave and the link.
    /// Calling it twice is harmless.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        master.close()
        if slaveKeeper >= 0 { _ = Glibc.close(slaveKeeper) }
        if let linkPath, readLink(linkPath) == slavePath { _ = unlink(linkPath) }
    }

    deinit { close() }
}

/// Points `path` at `target`, replacing an existing symlink but never a real file.
func replaceSymlink(at path: String, to target: String) -> Result<Void, Errno> {
    var st = stat()
    if lstat(path, &st) == 0 {
        guard (st.st_mode & S_IFMT) == S_IFLNK else { return .failure(.fileExists) }
        if case .failure(let e) = valueOrErrno({ unlink(path) }) { return .failure(e) }
    }
    return valueOrErrno { symlink(target, path) }.map { _ in () }
}
