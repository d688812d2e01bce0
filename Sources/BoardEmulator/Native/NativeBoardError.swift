/// Why a `NativeBoard` could not be made or replugged: one line naming the fix.
public enum NativeBoardError: Error, Equatable, CustomStringConvertible {
    case configuration(String)
    case pseudoTerminal(String)

    public var description: String {
        switch self {
        case .configuration(let reason): "native board: \(reason)"
        case .pseudoTerminal(let reason): "native board: \(reason)"
        }
    }
}
