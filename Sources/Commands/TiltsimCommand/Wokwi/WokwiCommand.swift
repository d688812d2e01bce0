import ArgumentParser
import BoardEmulator
import Foundation
import TiltExitStatus

/// `tiltsim wokwi [PROJECT_DIR]`: a Wokwi project (wokwi.toml, diagram.json,
/// an automation scenario) run offline, with wokwi-cli's options, verdict
/// lines and exit codes: 0 passed, 1 failed (or any file or configuration
/// error), 42 (--timeout-exit-code) the simulated time ran out.
struct WokwiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wokwi",
        abstract: "Run a Wokwi project (wokwi.toml, diagram.json, scenario) offline, as wokwi-cli does.",
        discussion: """
            A drop-in for `wokwi-cli [PROJECT_DIR]` on AVR Arduinos (Uno, Nano, Mega) with the parts \
            tiltsim models: no token (WOKWI_CLI_TOKEN is ignored), no network. Time is simulated, so a \
            run gives the same bytes, pins and screenshots every time. The serial output goes to stdout. \
            --eeprom FILE keeps the board's EEPROM between runs. \
            Exit codes: 0 passed; 1 failed (fail text, a failed step, a file or configuration error); \
            42 (or --timeout-exit-code) timed out, also when --expect-text never appeared. \
            docs/emulator.md, "tiltsim wokwi", lists what is supported and what differs.
            """)

    @Argument(help: ArgumentHelp("The project folder (wokwi.toml, diagram.json).", valueName: "path"), completion: .directory)
    var projectPath = "."

    @Option(help: ArgumentHelp("Simulated milliseconds before the run times out (0: never).", valueName: "ms"))
    var timeout = "30000"

    @Option(name: .customLong("expect-text"), help: ArgumentHelp("Pass when a serial line contains this text.", valueName: "string"))
    var expectText: String?

    @Option(name: .customLong("fail-text"), help: ArgumentHelp("Fail when a serial line contains this text.", valueName: "string"))
    var failText: String?

    @Option(help: ArgumentHelp("The firmware to run (ELF or HEX), relative to the current folder; wokwi.toml is then optional.", valueName: "path"), completion: .file(extensions: ["elf", "hex"]))
    var elf: String?

    @Option(name: .customLong("diagram-file"), help: ArgumentHelp("The diagram, relative to the project or absolute (default diagram.json).", valueName: "path"), completion: .file(extensions: ["json"]))
    var diagramFile: String?

    @Flag(help: "Send stdin to the sketch's serial input.")
    var interactive = false

    @Option(help: ArgumentHelp("An automation scenario (YAML), relative to the project or absolute.", valueName: "path"), completion: .file(extensions: ["yaml", "yml"]))
    var scenario: String?

    @Option(name: .customLong("serial-log-file"), help: ArgumentHelp("Also write the serial output to this file.", valueName: "path"), completion: .file())
    var serialLogFile: String?

    @Option(name: .customLong("screenshot-part"), help: ArgumentHelp("The display part to take a screenshot of (with --screenshot-time).", valueName: "id"))
    var screenshotPart: String?

    @Option(name: .customLong("screenshot-time"), help: ArgumentHelp("When to take it, simulated milliseconds.", valueName: "ms"))
    var screenshotTime: String?

    @Option(name: .customLong("screenshot-file"), help: ArgumentHelp("Where to save it (default screenshot.png).", valueName: "path"), completion: .file(extensions: ["png"]))
    var screenshotFile: String?

    @Option(name: .customLong("timeout-exit-code"), help: ArgumentHelp("The exit code on a timeout (default 42).", valueName: "code"))
    var timeoutExitCode = "42"

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "No status messages (the serial output, errors and wokwi-cli's scenario lines still show).")
    var quiet = false

    /// wokwi-cli's logic analyzer trace: refused by name rather than as an unknown option.
    @Option(name: .customLong("vcd-file"), help: .hidden)
    var vcdFile: String?

    /// wokwi-cli's commands besides running a project, refused by name when given as the project folder.
    static let otherCommands = ["lint", "init", "mcp", "chip", "serial-monitor"]

    /// `--eeprom`, and the pty board's options this refuses (`Tiltsim.ptyBoardOptions`).
    @ParentCommand var root: Tiltsim

    func validate() throws {
        if vcdFile != nil {
            throw CommandFailure.usage("--vcd-file: tiltsim writes no logic analyzer trace (wokwi-cli's VCD file); leave it out")
        }
        if Self.otherCommands.contains(projectPath), !FileManager.default.fileExists(atPath: projectPath) {
            throw CommandFailure.usage("\(projectPath): a wokwi-cli command tiltsim does not offer; tiltsim wokwi [PROJECT_DIR] runs a project")
        }
        let dropped = root.ptyBoardOptions(forWokwi: true)
        if !dropped.isEmpty {
            throw CommandFailure.usage("\(dropped.joined(separator: ", ")): not for tiltsim wokwi, whose board, parts and wiring come "
                + "from diagram.json (tiltsim wokwi --help)")
        }
    }

    func run() throws {
        SignalPipe.unblock([.interrupt, .terminate])
        let code: Int32
        do throws(CommandFailure) {
            code = try WokwiRun(options: self).execute()
        } catch {
            StandardStreams.err("Error: \(CommandFailure.shown(error.description))\n")
            throw ExitCode(1)
        }
        if let failure = StandardStreams.outputFailure, code == 0 {
            // A failed run, as wokwi-cli knows only 0, 1 and the timeout's code.
            StandardStreams.err("Error: \(StandardStreams.lostLine(failure))\n")
            throw ExitCode(1)
        }
        if code != 0 { throw ExitCode(code) }
    }

    /// An option's value, or nil when it was not given or given empty (as wokwi-ci-action passes unset inputs).
    static func given(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
