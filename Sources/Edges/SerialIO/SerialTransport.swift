import SystemPackage

/// What ended a wait on a transport and a wake-up descriptor.
public enum SerialWaitResult: Sendable, Equatable {
    /// The port has bytes to read, or news (hang-up, error) that `read` will report.
    case readable
    /// The wake-up descriptor became readable (Ctrl-C, shutdown); the port was not looked at.
    case wokenUp
    /// The timeout passed (or a signal interrupted the wait) with nothing to do.
    case timedOut
}

/// Which buffered bytes `flush` discards.
public enum SerialBuffers: Sendable {
    /// Bytes received and not yet read; bytes written and not yet sent; both (tcflush's TCIFLUSH, TCOFLUSH, TCIOFLUSH).
    case input, output, both
}

/// An open serial connection: a real port (libserialport) or a pseudo-terminal (termios).
///
/// Reads never block: wait first (`waitReadable` or `wait(timeout:orWakeUp:)`),
/// then `read` until it returns 0 (not until a read comes back short).
/// Opening discards bytes that arrived before the open (input flush). A vanished device is always reported as
/// `SerialError.deviceGone` (never as an endless stream of empty reads).
///
/// One thread may read while another writes. `close` must not race with either.
public protocol SerialTransport: AnyObject, Sendable {
    /// The port name as the user gave it (for messages).
    var name: String { get }
    /// The descriptor to poll for readability (owned by the transport; do not close
    /// it; meaningless after `close`).
    var fileDescriptor: FileDescriptor { get }
    /// False once `close` has been called.
    var isOpen: Bool { get }

    /// Reads what is available now into `buffer` and returns the count, never
    /// blocking; 0 means nothing is waiting now (the transport would block).
    ///
    /// A count smaller than `buffer.count` is **not** the end of what is waiting:
    /// a pty returns at most 4095 bytes per read and a USB driver one packet's
    /// worth, so drain by calling `read` until it returns 0, then wait again.
    /// Each empty read costs one extra `poll` (timeout 0), which is also how end
    /// of file and hang-ups become `.deviceGone` instead of endless zeros.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int
    /// Writes all of `bytes`, waiting (bounded by the open options' write timeout) while
    /// the output buffer is full.
    func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError)
    /// Writes what fits in the output buffer now and returns how many bytes that was
    /// (possibly 0). For a board model whose output should be dropped, like a real
    /// UART's, when no host is reading.
    func writeWithoutWaiting(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int
    /// Raises (true) or lowers DTR. On most Arduinos lowering then raising DTR resets
    /// the board. A no-op on pseudo-terminals, which have no modem lines.
    func setDTR(_ asserted: Bool) throws(SerialError)
    /// Waits until everything written has left the output buffer.
    func drain() throws(SerialError)
    /// Discards bytes not yet read and/or not yet sent.
    func flush(_ buffers: SerialBuffers) throws(SerialError)
    /// Closes the port; later calls fail with `.deviceGone`. Calling it twice is harmless.
    func close()
}

extension SerialTransport {
    /// Waits until the port is readable (or hung up), at most `timeout` (nil:
    /// forever; rounded up to whole µs). Returns false on timeout or when a
    /// signal interrupted it.
    public func waitReadable(timeout: Duration?) throws(SerialError) -> Bool {
        try wait(timeout: timeout, orWakeUp: nil) == .readable
    }

    /// Waits until the port is readable, `wake` is readable, or `timeout` passes
    /// (nil: forever; rounded up to whole µs). Use a `WakeUpPipe` for Ctrl-C and
    /// shutdown. If both are ready, `.wokenUp` wins so shutdown is never starved
    /// by a chatty port.
    public func wait(timeout: Duration?, orWakeUp wake: FileDescriptor?) throws(SerialError) -> SerialWaitResult {
        guard isOpen else { throw .deviceGone(port: name) }
        let timeoutMicros = timeout.map { Int(clamping: $0.wholeMicros) } ?? -1
        switch pollTwo(fileDescriptor.rawValue, .readable, wake: wake?.rawValue, timeoutMicros: timeoutMicros) {
        case .failure(let e):
            throw e == .badFileDescriptor ? .deviceGone(port: name) : .ioError(port: name, operation: "poll", errno: e)
        case .success(nil):
            return .timedOut
        case .success(let (port, woken)?):
            if !woken.isEmpty { return .wokenUp }
            if port.contains(.invalid) { throw .deviceGone(port: name) }
            return port.isEmpty ? .timedOut : .readable
        }
    }
}
