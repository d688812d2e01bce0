import TiltAssets

/// Why a `NativeBoard` could not be made: one line naming the fix.
public enum NativeBoardError: Error, CustomStringConvertible {
    /// The sample rate (Hz) is outside 1...65535.
    case sampleRate(Int)
    /// The bundled art could not be loaded.
    case art(TiltAssets.LoadError)
    /// The board's end of the cable (as the AVR board's).
    case link(BoardLinkError)

    /// One line for people: what went wrong and the fix.
    public var description: String {
        switch self {
        case .sampleRate(let hz):
            "native board: sample rate \(hz) Hz: use 1 to 65535"
        case .art(let error):
            "native board: \(error.description)"
        case .link(let error):
            "native board: \(error.description)"
        }
    }
}
