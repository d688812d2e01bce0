import SerialIO
import SystemPackage

/// What either engine can meet at its end of the cable (`PtyLink`, the
/// board's thread) or after `stop()`: one line each, naming the fix, the same
/// whichever engine it was.
public enum BoardLinkError: Error, Equatable, CustomStringConvertible {
    /// The link to the pty (`linkPath`) cannot be made: `errno` says why.
    case cannotLink(path: String, errno: Errno)
    /// The pseudo-terminal (or the board's thread) could not be made.
    case pseudoTerminal(SerialError)
    /// `plugIn()` after `stop()`.
    case stopped

    /// A failed `PtyLink` or `BoardThread`: a link that cannot be made gets a
    /// message about the link, not the port.
    init(_ error: SerialError) {
        if case .ioError(let path, "symlink", let code) = error {
            self = .cannotLink(path: path, errno: code)
        } else {
            self = .pseudoTerminal(error)
        }
    }

    /// One line for people: what went wrong and the fix.
    public var description: String {
        switch self {
        case .cannotLink(let path, let errno):
            "cannot link \(path) to the board's pty (\(errno)); pick a path in a writable directory, not an existing file"
        case .pseudoTerminal(let error):
            error.description
        case .stopped:
            "the board is stopped; make a new one"
        }
    }
}
