import TiltCore

/// Opens serial ports, picking the implementation that can drive them.
public enum SerialPort {
    /// The baud rate the tiltserial firmware uses.
    public static let defaultBaud = SerialLine.defaultBaud

    /// Opens `path` (a device such as /dev/ttyUSB0, a /dev/serial/by-id link, or a pty
    /// slave) as 8N1 without flow control.
    ///
    /// Pseudo-terminals go through `TermiosTransport` (libserialport 0.1.1 cannot open
    /// them); everything else through `LibSerialPortTransport`, unless `options.backend`
    /// says otherwise. Errors carry the name as given.
    public static func open(
        path: String, baud: Int = defaultBaud, options: SerialOptions = SerialOptions()
    ) throws(SerialError) -> any SerialTransport {
        let port = try PortPath.resolve(path)
        // A pty that is someone's terminal now: opening it would take their keystrokes.
        if port.isPseudoTerminal, let member = TerminalSessions.member(of: port.resolved) {
            throw .someonesTerminal(port: path, member: member)
        }
        let useTermios = switch options.backend {
        case .automatic: port.isPseudoTerminal
        case .termios: true
        case .libserialport: false
        }
        if useTermios {
            return try TermiosTransport.open(port, baud: baud, options: options)
        }
        return try LibSerialPortTransport.open(portName: port.resolved, port: port, baud: baud, options: options)
    }
}
