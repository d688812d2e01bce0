/// How `SerialPort.open` configures a port. The line is always 8N1 without flow control.
public struct SerialOptions: Sendable, Equatable {
    /// What to do with the DTR line (which resets most Arduinos when it goes high).
    public enum DTR: Sendable, Equatable {
        /// Raise DTR after opening and lower it on close (HUPCL): the usual behaviour; an
        /// Arduino resets on open and the sketch restarts 0.8-3 s later.
        case assert
        /// Do not set DTR, and clear HUPCL so closing does not lower it. The kernel still
        /// raises DTR when a port is opened while it is low, so the *first* open after
        /// plugging in still resets the board; later opens (DTR already high) do not.
        case leave
    }

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
