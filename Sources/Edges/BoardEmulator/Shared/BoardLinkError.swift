import SerialIO
import SystemPackage

/// What either engine can meet at its end of the cable (`PtyLink`, the
/// board's thread) or after `stop()`: one line each, naming the fix, the same
/// whichever engine it was.
public enum BoardLinkError: Error, Equatable, CustomStringConvertible {
    /// The link to the pty (`linkPath`) cannot be made: `errno` says why.
    case cannotLink(path: String, errno: Errno)
    /// The link names the pty of another emulated board that still runs
    /// (`holder`, a tiltsim or this process): taking it over would leave that
    /// board running where no one can find it.
    case linkInUse(path: String, holder: DeviceOpener)
    /// The pseudo-terminal (or the board's thread) could not be made.
    case pseudoTerminal(SerialError)
    /// `plugIn()` after `stop()`.
    case stopped

    /// A failed `PtyLink` or `BoardThread`: a link that cannot be made, or
    /// that another board holds (`PtyLink`'s `portBusy`), gets a message about
    /// the link, not the port.
    init(_ error: SerialError) {
        if case .ioError(let path, "symlink", let code) = error {
            self = .cannotLink(path: path, errno: code)
        } else if case .portBusy(let path, let holder?) = error {
            self = .linkInUse(path: path, holder: holder)
        } else {
            self = .pseudoTerminal(error)
        }
    }

    /// One line for people: what went wrong and the fix.
    public var description: String {
        switch self {
        case .cannotLink(let path, let errno):
            "cannot link \(path) to the board's pty (\(errno)); pick a path in a writable directory, not an existing file"
        case .linkInUse(let path, let holder) where holder.isThisProcess:
            "\(path) is already the link of another board in this program; give each board a path of its own"
        case .linkInUse(let path, let holder):
            "\(path) is the link of another board still running (\(holder)); stop it (kill \(holder.pid)) or pick another path"
        case .pseudoTerminal(let error):
            error.description
        case .stopped:
            "the board is stopped; make a new one"
        }
    }
}
