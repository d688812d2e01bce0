#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLibSerialPort
import Synchronization
import SystemPackage

/// A serial transport over libserialport, for real ports (USB CDC-ACM, FTDI, CH340, ...).
///
/// libserialport 0.1.1 opens non-blocking and sets a raw line with VMIN=0/VTIME=0.
/// It takes no lock of its own (no flock, no TIOCEXCL in 0.1.1), so exclusivity is
/// added here. Waiting is poll on its descriptor; reads and writes use its
/// non-blocking calls through `DescriptorIO`, which maps EOF to `.deviceGone`.
public final class LibSerialPortTransport: SerialTransport {
    /// The port name as the user gave it (before links were resolved), for messages.
    public let name: String
    // The sp_port is only used by this object; `open` guards against use after close.
    nonisolated(unsafe) private let port: OpaquePointer
    private let io: DescriptorIO
    private let exclusive: Bool
    private let open: Atomic<Bool>

    /// libserialport's descriptor (`sp_get_port_handle`), to poll; owned by the port.
    public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: io.fd) }

    private init(port: OpaquePointer, fd: CInt, name: String, options: SerialOptions) {
        self.port = port
        self.name = name
        self.io = DescriptorIO(fd: fd, name: name, writeTimeout: options.writeTimeout)
        self.exclusive = options.exclusive
        self.open = Atomic(true)
    }

    /// Opens a port through libserialport.
    /// - Parameters:
    ///   - portName: the name handed to `sp_get_port_by_name`; it must resolve under
    ///     /dev and have an entry under /sys/class/tty (so resolved, not a by-id link).
    ///   - port: the user's name and resolved path, for messages and diagnostics.
    public static func open(
        portName: String, port: PortPath, baud: Int, options: SerialOptions
    ) throws(SerialError) -> LibSerialPortTransport {
        var handle: OpaquePointer? = nil
        let found = sp_get_port_by_name(portName, &handle)
        guard found == SP_OK, let handle else {
            // libserialport found no /sys/class/tty entry: not a port it can drive.
            if found == SP_ERR_MEM { throw .ioError(port: port.given, operation: "sp_get_port_by_name", errno: .noMemory) }
            throw .notASerialDevice(port: port.given)
        }
        let opened = sp_open(handle, SP_MODE_READ_WRITE)
        guard opened == SP_OK else {
            let code = sp_last_error_code()
            sp_free_port(handle)
            throw openError(Errno(rawValue: code), given: port.given, resolved: port.resolved, operation: "sp_open")
        }
        var fd: CInt = -1
        _ = sp_get_port_handle(handle, &fd)
        let transport = LibSerialPortTransport(port: handle, fd: fd, name: port.given, options: options)
        do throws(SerialError) {
            try transport.configure(port, baud: baud, options: options)
        } catch {
            transport.releaseWithoutUnlocking()
            throw error
        }
        return transport
    }

    private func configure(_ port: PortPath, baud: Int, options: SerialOptions) throws(SerialError) {
        if options.exclusive {
            if case .failure(let e) = lockExclusive(io.fd) {
                throw openError(e, given: port.given, resolved: port.resolved, operation: "flock")
            }
            _ = setTTYExclusive(io.fd, true)
        }
        // libserialport opens without O_CLOEXEC; children (e.g. an uploader) must not inherit the port.
        _ = fcntl(io.fd, F_SETFD, FD_CLOEXEC)
        do throws(SerialError) {
            try applyLineSettings(port, baud: baud, options: options)
        } catch {
            // The tty outlives this descriptor when others hold it: do not leave it exclusive.
            if options.exclusive { _ = setTTYExclusive(io.fd, false) }
            throw error
        }
    }

    private func applyLineSettings(_ port: PortPath, baud: Int, options: SerialOptions) throws(SerialError) {
        // sp_new_config leaves every field "unchanged" (-1); set only what we mean.
        var config: OpaquePointer? = nil
        guard sp_new_config(&config) == SP_OK, let config else {
            throw .ioError(port: port.given, operation: "sp_new_config", errno: .noMemory)
        }
        defer { sp_free_config(config) }
        sp_set_config_baudrate(config, CInt(baud))
        sp_set_config_bits(config, 8)
        sp_set_config_parity(config, SP_PARITY_NONE)
        sp_set_config_stopbits(config, 1)
        sp_set_config_flowcontrol(config, SP_FLOWCONTROL_NONE)  // leaves DTR/RTS levels alone
        if options.dtr == .assert { sp_set_config_dtr(config, SP_DTR_ON) }
        let set = sp_set_config(self.port, config)
        if set == SP_ERR_ARG { throw .unsupportedBaudRate(port: port.given, baud: baud) }
        if set != SP_OK {
            throw openError(Errno(rawValue: sp_last_error_code()), given: port.given, resolved: port.resolved, operation: "sp_set_config")
        }
        if options.dtr == .leave {
            // sp_open sets HUPCL, which would lower DTR on close and reset the board next time.
            if case .failure(let e) = clearHangUpOnClose(io.fd) {
                throw .ioError(port: port.given, operation: "tcsetattr", errno: e)
            }
        }
        // Bytes that arrived before this open (an old session, at another speed) are not ours to decode.
        if case .failure(let e) = result(sp_flush(self.port, SP_BUF_INPUT)) {
            throw .ioError(port: port.given, operation: "sp_flush", errno: e)
        }
    }

    /// False once `close` has run (or a failed open released the port).
    public var isOpen: Bool { open.load(ordering: .acquiring) }

    private func checkOpen() throws(SerialError) {
        guard open.load(ordering: .acquiring) else { throw .deviceGone(port: name) }
    }

    /// libserialport returns a count, or a negative sp_return with errno in sp_last_error_code.
    private func result(_ r: sp_return) -> Result<Int, Errno> {
        r.rawValue >= 0 ? .success(Int(r.rawValue)) : .failure(Errno(rawValue: sp_last_error_code()))
    }

    /// Reads what is waiting with `sp_nonblocking_read`; 0 when nothing is. EOF is `.deviceGone`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        try checkOpen()
        return try io.read(into: buffer) { buf in result(sp_nonblocking_read(port, buf.baseAddress, buf.count)) }
    }

    /// Writes all of `bytes` with `sp_nonblocking_write`, polling for room for at most `SerialOptions.writeTimeout`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) {
        try checkOpen()
        try io.write(bytes) { buf in result(sp_nonblocking_write(port, buf.baseAddress, buf.count)) }
    }

    /// Writes what fits now (`sp_nonblocking_write`) and returns the count taken, possibly 0.
    public func writeWithoutWaiting(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        try checkOpen()
        return try io.writeWithoutWaiting(bytes) { buf in result(sp_nonblocking_write(port, buf.baseAddress, buf.count)) }
    }

    /// Raises (true) or lowers the DTR line (`sp_set_dtr`); raising it resets most Arduinos.
    public func setDTR(_ asserted: Bool) throws(SerialError) {
        try checkOpen()
        if case .failure(let e) = result(sp_set_dtr(port, asserted ? SP_DTR_ON : SP_DTR_OFF)) {
            throw io.failure(e, "set DTR")
        }
    }

    /// Blocks until the output buffer has gone out on the wire (`sp_drain`, tcdrain(3)).
    public func drain() throws(SerialError) {
        try checkOpen()
        if case .failure(let e) = result(sp_drain(port)) { throw io.failure(e, "drain") }
    }

    /// Discards buffered bytes not yet read or sent (`sp_flush`).
    public func flush(_ buffers: SerialBuffers) throws(SerialError) {
        try checkOpen()
        let which = switch buffers {
        case .input: SP_BUF_INPUT
        case .output: SP_BUF_OUTPUT
        case .both: SP_BUF_BOTH
        }
        if case .failure(let e) = result(sp_flush(port, which)) { throw io.failure(e, "flush") }
    }

    /// Releases the exclusive lock (TIOCNXCL) and closes the port (`sp_close`, `sp_free_port`); a second call does nothing.
    public func close() {
        guard open.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if exclusive { _ = setTTYExclusive(io.fd, false) }
        sp_close(port)
        sp_free_port(port)
    }

    /// Failure during open: close without TIOCNXCL (we may not own the exclusive flag).
    private func releaseWithoutUnlocking() {
        guard open.exchange(false, ordering: .acquiringAndReleasing) else { return }
        sp_close(port)
        sp_free_port(port)
    }

    deinit { close() }
}
