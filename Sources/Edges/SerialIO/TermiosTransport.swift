#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import SystemPackage

/// A serial transport over plain POSIX termios: used for pseudo-terminals (which
/// libserialport 0.1.1 cannot open) and for the master side of a `PseudoTerminal`.
///
/// Raw mode (cfmakeraw), 8N1, CLOCAL|CREAD, VMIN=0/VTIME=0, O_NONBLOCK; waiting is poll.
public final class TermiosTransport: SerialTransport {
    /// The port name as the user gave it (before links were resolved), for messages.
    public let name: String
    private let io: DescriptorIO
    private let exclusive: Bool
    private let open: Atomic<Bool>

    /// The open(2) descriptor of the tty, to poll; owned by the port.
    public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: io.fd) }

    /// Takes ownership of an already open, already configured descriptor (e.g. a pty
    /// master). Sets O_NONBLOCK. `close()` closes it.
    public init(adopting fd: FileDescriptor, name: String, writeTimeout: Duration = .seconds(2)) {
        _ = valueOrErrno { fcntl(fd.rawValue, F_SETFL, fcntl(fd.rawValue, F_GETFL) | O_NONBLOCK) }
        self.name = name
        self.io = DescriptorIO(fd: fd.rawValue, name: name, writeTimeout: writeTimeout)
        self.exclusive = false
        self.open = Atomic(true)
    }

    private init(fd: CInt, name: String, options: SerialOptions) {
        self.name = name
        self.io = DescriptorIO(fd: fd, name: name, writeTimeout: options.writeTimeout)
        self.exclusive = options.exclusive
        self.open = Atomic(true)
    }

    /// Opens `port` (any tty, typically a pty slave) in raw mode.
    public static func open(_ port: PortPath, baud: Int, options: SerialOptions) throws(SerialError) -> TermiosTransport {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                FilePath(port.resolved), .readWrite,
                options: [.nonBlocking, .closeOnExec, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)])
        } catch {
            throw openError(error as? Errno ?? .ioError, given: port.given, resolved: port.resolved, operation: "open")
        }
        let transport = TermiosTransport(fd: fd.rawValue, name: port.given, options: options)
        do throws(SerialError) {
            try transport.configure(port, baud: baud, options: options)
        } catch {
            // Opened but unusable: release without touching TIOCEXCL state we did not set.
            try? fd.close()
            transport.open.store(false, ordering: .releasing)
            throw error
        }
        return transport
    }

    private func configure(_ port: PortPath, baud: Int, options: SerialOptions) throws(SerialError) {
        let fd = io.fd
        var t: termios
        switch getTermios(fd) {
        case .success(let value): t = value
        case .failure(let e): throw openError(e, given: port.given, resolved: port.resolved, operation: "tcgetattr")
        }
        guard let speed = termiosSpeed(baud) else { throw .unsupportedBaudRate(port: port.given, baud: baud) }
        if options.exclusive {
            if case .failure(let e) = lockExclusive(fd) {
                throw openError(e, given: port.given, resolved: port.resolved, operation: "flock")
            }
            _ = setTTYExclusive(fd, true)
        }
        do throws(SerialError) {
            try applyRawMode(&t, speed: speed, port: port, options: options)
        } catch {
            // The tty outlives this descriptor when others hold it: do not leave it exclusive.
            if options.exclusive { _ = setTTYExclusive(fd, false) }
            throw error
        }
    }

    private func applyRawMode(_ t: inout termios, speed: speed_t, port: PortPath, options: SerialOptions) throws(SerialError) {
        let fd = io.fd
        cfmakeraw(&t)
        t.c_cflag |= tcflag_t(CLOCAL | CREAD)
        t.c_cflag &= ~(tcflag_t(CRTSCTS) | tcflag_t(CSTOPB | PARENB))
        t.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY)
        if options.dtr == .leave { t.c_cflag &= ~tcflag_t(HUPCL) } else { t.c_cflag |= tcflag_t(HUPCL) }
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        cfsetispeed(&t, speed)
        cfsetospeed(&t, speed)
        if case .failure(let e) = setTermios(fd, t) {
            throw .ioError(port: port.given, operation: "tcsetattr", errno: e)
        }
        if options.dtr == .assert {
            // Ptys have no modem lines (ENOTTY); real ports raise DTR and RTS here.
            _ = setModemLines(fd, TIOCM_DTR | TIOCM_RTS, asserted: true)
        }
        // Bytes that arrived before this open (an old session, at another speed) are not ours to decode.
        if case .failure(let e) = valueOrErrno({ tcflush(fd, TCIFLUSH) }) {
            throw .ioError(port: port.given, operation: "tcflush", errno: e)
        }
    }

    /// False once `close` has run.
    public var isOpen: Bool { open.load(ordering: .acquiring) }

    private func checkOpen() throws(SerialError) {
        guard open.load(ordering: .acquiring) else { throw .deviceGone(port: name) }
    }

    /// Reads what is waiting with read(2) on the non-blocking descriptor; 0 when nothing is. EOF is `.deviceGone`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        try checkOpen()
        let fd = io.fd
        return try io.read(into: buffer) { buf in valueOrErrno { Glibc.read(fd, buf.baseAddress, buf.count) } }
    }

    /// Writes all of `bytes` with write(2), polling for room for at most `SerialOptions.writeTimeout`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) {
        try checkOpen()
        let fd = io.fd
        try io.write(bytes) { buf in valueOrErrno { Glibc.write(fd, buf.baseAddress, buf.count) } }
    }

    /// Writes what fits now (one write(2)) and returns the count taken, possibly 0.
    public func writeWithoutWaiting(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        try checkOpen()
        let fd = io.fd
        return try io.writeWithoutWaiting(bytes) { buf in valueOrErrno { Glibc.write(fd, buf.baseAddress, buf.count) } }
    }

    /// Raises (true) or lowers DTR (TIOCMBIS/TIOCMBIC); a pty has no modem lines and quietly ignores it.
    public func setDTR(_ asserted: Bool) throws(SerialError) {
        try checkOpen()
        switch setModemLines(io.fd, TIOCM_DTR, asserted: asserted) {
        case .success, .failure(.inappropriateIOCTLForDevice), .failure(.invalidArgument): return  // ptys: no modem lines
        case .failure(let e): throw io.failure(e, "set DTR")
        }
    }

    /// Blocks until the output buffer has gone out (tcdrain(3), retried on EINTR).
    public func drain() throws(SerialError) {
        try checkOpen()
        let fd = io.fd
        if case .failure(let e) = retryingOnInterrupt({ tcdrain(fd) }) { throw io.failure(e, "drain") }
    }

    /// Discards buffered bytes not yet read or sent (tcflush(3)).
    public func flush(_ buffers: SerialBuffers) throws(SerialError) {
        try checkOpen()
        let which: CInt = switch buffers {
        case .input: TCIFLUSH
        case .output: TCOFLUSH
        case .both: TCIOFLUSH
        }
        let fd = io.fd
        if case .failure(let e) = valueOrErrno({ tcflush(fd, which) }) { throw io.failure(e, "flush") }
    }

    /// Releases the exclusive flag (TIOCNXCL) and closes the descriptor; a second call does nothing.
    public func close() {
        guard open.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if exclusive { _ = setTTYExclusive(io.fd, false) }
        _ = Glibc.close(io.fd)
    }

    deinit { close() }
}
