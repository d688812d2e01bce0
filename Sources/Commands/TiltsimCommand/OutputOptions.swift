import ArgumentParser
import Foundation
import TiltCore
import TiltExitStatus

/// What the command shows and writes while the board runs.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Show the board's display in the terminal (on stderr, as large as it fits; a log file gets the status line).")
    var screen = false

    @Option(help: ArgumentHelp("Write the display as PNG (4x) here on SIGUSR1 and at exit.", valueName: "file"), completion: .file(extensions: ["png"]))
    var png: String?

    @Option(help: ArgumentHelp("Stop after this many wall seconds (default: run until Ctrl-C).", valueName: "seconds"))
    var duration: Double?

    @Flag(help: "avr: at exit, print the glass's frames/s, the I2C bus's limit and motion to photon p50/p95/max (board time) on stderr (docs/emulator.md, \"Motion to photon\").")
    var stats = false

    @Flag(help: "Stop as on Ctrl-C when the process that started tiltsim ends, even by SIGKILL (tiltserial demo uses it).")
    var exitWithParent = false

    func validate() throws {
        if let duration, !(duration > 0 && duration <= 31_536_000) { throw CommandFailure.usage("--duration \(NumberText.plain(duration)): use seconds above 0, at most 31536000 (a year)") }
        if let png, png.isEmpty { throw CommandFailure.usage("--png needs a file name") }
    }

    /// The PNG's file, checked now, not at exit (nil without --png).
    func pngFile() throws(CommandFailure) -> OutputFile? {
        try png.map { path throws(CommandFailure) in try OutputFile(path, what: "a PNG") }
    }
}
