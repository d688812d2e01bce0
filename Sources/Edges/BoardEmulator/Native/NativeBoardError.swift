import SerialIO
import SystemPackage
import TiltAssets

/// Why a `NativeBoard` could not be made or replugged: one line naming the fix.
public enum NativeBoardError: Error, CustomStringConvertible {
    /// The sample rate (Hz) is outside 1...65535.
    case sampleRate(Int)
    /// The bundled art could not be loaded.
    case art(TiltAssets.LoadError)
    /// The link to the pty (`linkPath`) cannot be made: `errno` says why.
    case cannotLink(path: String, errno: Errno)
    /// The pseudo-terminal (or the board's thread) could not be made.
    case pseudoTerminal(SerialError)
    /// `plugIn()` after `stop()`.
    case stopped

    /// One line for people: what went wrong and the fix.
    public var description: String {
        switch self {
        case .sampleRate(let hz):
            "native board: sample rate \(hz) Hz: use 1 to 65535"
        case .art(let error):
            "native board: \(error.description)"
        case .cannotLink(let path, let errno):
            "native board: cannot create the link \(path) (\(errno)); pick a path in a writable directory, not an existing file"
        case .pseudoTerminal(let error):
            "native board: \(error.description)"
        case .stopped:
            "native board: the board is stopped; make a new NativeBoard"
        }
    }
}
