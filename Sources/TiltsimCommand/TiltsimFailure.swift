import Foundation

/// A one-line error and the exit code it ends the command with.
struct TiltsimFailure: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    /// A file the user named cannot be used (EX_NOINPUT / EX_DATAERR).
    static func file(_ message: String) -> Self { Self(description: message, exitCode: 66) }
    static func data(_ message: String) -> Self { Self(description: message, exitCode: 65) }
    /// Options that cannot work together (EX_USAGE), found after parsing.
    static func usage(_ message: String) -> Self { Self(description: message, exitCode: 64) }
    /// An output file cannot be created (EX_CANTCREAT).
    static func cannotCreate(_ message: String) -> Self { Self(description: message, exitCode: 73) }
    /// The system refused (pty, pipe, signals): EX_OSERR.
    static func system(_ message: String) -> Self { Self(description: message, exitCode: 71) }

    func report() {
        FileHandle.standardError.write(Data("tiltsim: \(description)\n".utf8))
    }
}
