import Foundation
import TiltExitStatus

/// A one-line error and the exit status it ends the command with (`ExitStatus`,
/// the table both tools share).
struct TiltsimFailure: Error, CustomStringConvertible {
    let description: String
    let status: ExitStatus

    /// A file the user named is missing, unreadable or malformed.
    static func file(_ message: String) -> Self { Self(description: message, status: .badFile) }
    /// Options that cannot work together, found after parsing.
    static func usage(_ message: String) -> Self { Self(description: message, status: .badSettings) }
    /// An output file cannot be created there.
    static func cannotCreate(_ message: String) -> Self { Self(description: message, status: .badFile) }
    /// The firmware or sketch file is missing or bad.
    static func firmware(_ message: String) -> Self { Self(description: message, status: .badFirmware) }
    /// The emulated board could not start.
    static func emulator(_ message: String) -> Self { Self(description: message, status: .emulatorFailed) }
    /// The system refused (pipe, signals).
    static func system(_ message: String) -> Self { Self(description: message, status: .ioError) }

    var exitCode: Int32 { status.rawValue }

    func report() {
        FileHandle.standardError.write(Data("tiltsim: \(description)\n".utf8))
    }
}
