import TiltCore

/// How `SerialPort.open` configures a port. The line is always 8N1 without flow control.
public struct SerialOptions: Sendable, Equatable {
    /// What to do with the DTR line: TiltCore's `SerialLine.DTR`, where the settings name it.
    public typealias DTR = SerialLine.DTR

    /// Which implementation opens the port.
    public enum Backend: Sendable, Equatable {
        /// Pseudo-terminals use termios, everything else libserialport.
        case automatic
        /// Always libserialport (fails on ptys unless libserialport can see them).
        case libserialport
        /// Always plain POSIX termios.
        case termios
    }

    /// DTR policy; see `DTR` and docs/serial.md for what the kernel does regardless.
    public var dtr: DTR
    /// Take the port exclusively (flock plus TIOCEXCL); a second opener gets `.portBusy`.
    public var exclusive: Bool
    /// Upper bound for one `write` to complete while the output buffer is full.
    public var writeTimeout: Duration
    /// Which implementation to use; `.automatic` unless testing.
    public var backend: Backend

    /// Options with the usual defaults: assert DTR, exclusive, writes may wait 2 s, automatic backend.
    public init(
        dtr: DTR = .assert, exclusive: Bool = true,
        writeTimeout: Duration = .seconds(2), backend: Backend = .automatic
    ) {
        self.dtr = dtr
        self.exclusive = exclusive
        self.writeTimeout = writeTimeout
        self.backend = backend
    }
}
