import SystemPackage

/// Why a serial operation failed. Each case renders as one line that says what
/// happened and the fix in the world (plug in, join a group, close a program):
/// `message`. What to type next is the commands' to add (tiltserial's
/// `Failure.init(SerialError)` names `tiltserial list`), with their exit codes.
///
/// `port` is always the name the user gave (e.g. a /dev/serial/by-id/... link), not
/// the resolved device, so messages match what was typed.
public enum SerialError: Error, Equatable, Sendable {
    /// Nothing exists at the path.
    case noSuchPort(port: String)
    /// The device exists but this user may not open it. `group` owns the device
    /// (e.g. "dialout" on Debian/Ubuntu, "uucp" on Arch/Fedora) when it is known.
    case permissionDenied(port: String, group: String?)
    /// Another program (or another open in this one) holds the port: its
    /// exclusive open (TIOCEXCL) refused ours, or it holds the flock we take.
    /// `holder` is that process when /proc shows it (`DeviceOpeners.busyHolder`).
    case portBusy(port: String, holder: DeviceOpener?)
    /// `port` is a symlink (a /dev/serial/by-id name, an emulator's `--link`)
    /// whose target does not exist (now): unplugged, or the emulator stopped.
    /// A link that later resolves again may point at an unrelated tty (see `PortIdentity`).
    case danglingLink(port: String, target: String)
    /// The path is not a terminal device (a regular file, a directory, ...).
    case notASerialDevice(port: String)
    /// The path is a pseudo-terminal that is someone's terminal (`member`'s
    /// controlling tty, `TerminalSessions`): an emulator's old pty number
    /// that a terminal window has since been given. Never opened.
    case someonesTerminal(port: String, member: DeviceOpener)
    /// The device disappeared (unplugged, or the other end of a pty closed).
    case deviceGone(port: String)
    /// A write could not complete within its bounded wait (nobody is reading, or flow is stuck).
    case writeTimedOut(port: String, written: Int, total: Int)
    /// The baud rate was refused by the driver.
    case unsupportedBaudRate(port: String, baud: Int)
    /// Any other operating-system failure: `errno` says which, `operation` what we were doing
    /// (the system call's name, e.g. "tcsetattr").
    case ioError(port: String, operation: String, errno: Errno)

    /// One line naming the problem and the fix (the port as `PortName` shows it).
    public var message: String {
        let port = PortName.shown(self.port)
        switch self {
        case .noSuchPort:
            return "\(port): no such serial port"
        case .permissionDenied(_, let group?):
            return "\(port): permission denied; the device belongs to group '\(group)': "
                + "run `sudo usermod -aG \(group) $USER`, then log out and back in"
        case .permissionDenied(_, nil):
            return "\(port): permission denied; add yourself to the group owning serial devices "
                + "(`sudo usermod -aG dialout $USER` on Debian/Ubuntu, uucp on Arch/Fedora), then log out and back in"
        case .portBusy(_, let holder?) where holder.isThisProcess:
            return "\(port): port busy, already open in this program (\(holder.command), pid \(holder.pid)); close that handle first"
        case .portBusy(_, let holder?):
            return "\(port): port busy, open in another program (\(holder.command), pid \(holder.pid)): quit it or pick another port"
        case .portBusy(_, nil):
            return "\(port): port busy, open in another program (/proc does not say which): "
                + "close other serial monitors (Arduino IDE, screen, minicom) or pick another port"
        case .danglingLink(_, let target):
            return "\(port): the link points at \(PortName.shown(target)), which does not exist; plug the board in "
                + "(or start the emulator)"
        case .notASerialDevice:
            return "\(port): not a serial device; pass a tty such as /dev/ttyUSB0 or /dev/ttyACM0"
        case .someonesTerminal(_, let member):
            return "\(port): a terminal in use (\(member.command), pid \(member.pid), runs in it), not a board; an emulator's "
                + "pseudo-terminal gets a new name each run: give the one tiltsim printed (tiltsim --link PATH keeps one name)"
        case .deviceGone:
            return "\(port): device gone (unplugged or closed); reconnect it and start again"
        case .writeTimedOut(_, let written, let total):
            return "\(port): write stalled after \(written) of \(total) bytes; is the board running and reading?"
        case .unsupportedBaudRate(_, let baud):
            return "\(port): baud rate \(baud) not supported by the driver; try 115200"
        case .ioError(_, let operation, let errno):
            return "\(port): \(operation) failed: \(errno) (errno \(errno.rawValue)); check the cable and try again"
        }
    }

    /// The port name as the user gave it.
    public var port: String {
        switch self {
        case .noSuchPort(let p), .permissionDenied(let p, _), .portBusy(let p, _), .danglingLink(let p, _), .notASerialDevice(let p),
             .someonesTerminal(let p, _),
             .deviceGone(let p), .writeTimedOut(let p, _, _), .unsupportedBaudRate(let p, _), .ioError(let p, _, _):
            return p
        }
    }
}

extension SerialError: CustomStringConvertible {
    /// The same line as `message`.
    public var description: String { message }
}
