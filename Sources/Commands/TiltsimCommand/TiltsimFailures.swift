import Foundation
import TiltCore
import TiltExitStatus

/// tiltsim's ways to stop short, each with its exit status (the table both
/// tools share); the failure is the type tiltserial throws too.
extension CommandFailure {
    /// A file the user named is missing, unreadable or malformed.
    static func file(_ message: String) -> Self { Self(.badFile, message) }
    /// Options that cannot work together, found after parsing.
    static func usage(_ message: String) -> Self { Self(.badSettings, message) }
    /// An output file cannot be created there.
    static func cannotCreate(_ message: String) -> Self { Self(.badFile, message) }
    /// The firmware or sketch file is missing or bad.
    static func firmware(_ message: String) -> Self { Self(.badFirmware, message) }
    /// The emulated board could not start.
    static func emulator(_ message: String) -> Self { Self(.emulatorFailed, message) }
    /// The system refused (pipe, signals).
    static func system(_ message: String) -> Self { Self(.ioError, message) }

    /// Prints the line on stderr after tiltsim's prefix, escaped
    /// (`OneLineText`): a path holding ESC or a newline must not drive the
    /// terminal or split the line.
    func report() {
        StandardStreams.err("tiltsim: \(Self.shown(message))\n")
    }

    /// A message as one line for the terminal.
    static func shown(_ message: String) -> String { OneLineText.escaped(message, limit: 4096) }
}
