/// The serial line's settings a config file names, as plain values: here in the
/// core so the settings (and their fuzzer) need not link the serial library;
/// SerialIO opens ports with them.
public enum SerialLine {
    /// The baud rate the tiltserial firmware uses.
    public static let defaultBaud = 115_200
    /// How long a run waits for the board's first valid frame or data line, µs
    /// (a reset Arduino's bootloader takes up to 3 s before the sketch speaks).
    public static let helloTimeoutMicros: UInt64 = 4_000_000
    /// Whether a run waits for an unplugged device to come back.
    public static let reconnects = true

    /// What opening the port does with the DTR line (which resets most Arduinos when it goes high).
    public enum DTR: Sendable, Equatable {
        /// Raise DTR after opening and lower it on close (HUPCL): the usual behaviour; an
        /// Arduino resets on open and the sketch restarts 0.8-3 s later.
        case assert
        /// Do not set DTR, and clear HUPCL so closing does not lower it. The kernel still
        /// raises DTR when a port is opened while it is low, so the *first* open after
        /// plugging in still resets the board; later opens (DTR already high) do not.
        case leave
    }
}
