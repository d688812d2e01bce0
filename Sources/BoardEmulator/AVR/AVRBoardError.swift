/// Why the AVR board could not start or continue. Each message names the fix.
public enum AVRBoardError: Error, Equatable, CustomStringConvertible {
    /// The firmware file is missing, not an AVR ELF, or does not fit.
    case firmware(String)
    /// A pseudo-terminal or its link could not be made.
    case pseudoTerminal(String)

    public var description: String {
        switch self {
        case .firmware(let message), .pseudoTerminal(let message): message
        }
    }
}
