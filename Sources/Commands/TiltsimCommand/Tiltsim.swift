import ArgumentParser
import BoardEmulator
import Foundation
import SerialIO
import TiltAssets
import TiltDisplay
import TiltExitStatus
import TiltVersion
import WireProtocol

/// `tiltsim`: an emulated tiltserial board on a pseudo-terminal, running the real
/// firmware in simavr (`--engine avr`) or the Swift board model (`--engine native`).
public struct Tiltsim: ParsableCommand {
    /// The command's name ("tiltsim"), its help text, the `run` subcommand, and the version line `--version` prints.
    public static let configuration = CommandConfiguration(
        commandName: "tiltsim",
        abstract: "Emulate a tiltserial board (MPU-6050 + SSD1306) on a pseudo-terminal.",
        // ArgumentParser's "tiltsim <options> <subcommand>" made the subcommand look required.
        usage: "tiltsim [<options>]\ntiltsim run [<options>] <sketch>\ntiltsim wokwi [<options>] [<path>]",
        discussion: """
            Prints each board's pty path on stdout, one line each, then runs until
            Ctrl-C or --duration. Open the path with `tiltserial PATH`.
            A board stays off (avr: held in reset) until a host first opens its port,
            so the host sees it boot and the motion from its start; --run-now starts
            it at once. Each host that opens the port later resets it, as an Uno's
            DTR does (not a Leonardo's: its port is its own USB). Send SIGUSR1
            to write the --png file now. Each start is a new board: its EEPROM
            (what `tiltserial setup` stores) starts erased and lasts while
            tiltsim runs (--eeprom FILE keeps it between runs).

            Motions: \(Scenarios.names.joined(separator: ", ")).

            `tiltsim run SKETCH` runs a sketch in simulated time for CI
            (tiltsim run --help).
            `tiltsim wokwi [PROJECT_DIR]` runs a Wokwi project offline, as wokwi-cli
            does (tiltsim wokwi --help).
            """,
        version: "tiltsim \(TiltVersion.number) (wire protocol \(WireFormat.version))",
        subcommands: [RunSketch.self, WokwiCommand.self])

    @OptionGroup(title: "Engine") var engine: EngineOptions
    @OptionGroup(title: "Wiring (avr)") var wiring: WiringOptions
    @OptionGroup(title: "Motion") var motion: MotionOptions
    @OptionGroup(title: "Output") var output: OutputOptions

    /// An empty command, as ArgumentParser needs; `parse` fills the option groups.
    public init() {}

    /// The options given that only the pty board (tiltsim without a
    /// subcommand) reads: `run` and `wokwi` refuse them, where they were
    /// parsed and dropped (`tiltsim run SKETCH --eeprom F` kept nothing,
    /// `--firmware X` ran SKETCH). `--eeprom` is theirs too; `wokwi` takes
    /// its board, wiring and motion from the diagram (`forWokwi`).
    func ptyBoardOptions(forWokwi: Bool) -> [String] {
        let given: [(Bool, String)] = [
            (engine.engine != nil, "--engine"), (engine.firmware != nil, "--firmware"), (engine.rate != nil, "--rate"),
            (engine.speed != nil, "--speed"), (engine.freeRunning, "--free-running"), (engine.link != nil, "--link"),
            (engine.boards != nil, "--boards"), (engine.faults != nil, "--faults"), (engine.runNow, "--run-now"),
            (output.screen, "--screen"), (output.png != nil, "--png"), (output.duration != nil, "--duration"),
            (output.stats, "--stats"), (output.exitWithParent, "--exit-with-parent"),
            (forWokwi && engine.board != nil, "--board"), (forWokwi && wiring.isGiven, "the wiring options"),
            (forWokwi && motion.isGiven, "the motion options"),
        ]
        return given.filter(\.0).map(\.1)
    }

    /// The avr engine's options among those given ("--board mega and the
    /// wiring options"), nil when none: refused when it fell back to native.
    static func avrOnly(board: String?, wiring: Bool, stats: Bool) -> (options: String, count: Int)? {
        let given = [(board.map { $0 != "uno" } ?? false, "--board \(board ?? "")"), (wiring, "the wiring options"), (stats, "--stats")]
            .filter(\.0).map(\.1)
        guard let last = given.last else { return nil }
        return (given.count == 1 ? last : given.dropLast().joined(separator: ", ") + " and " + last, given.count)
    }

    /// Rejects option combinations the groups cannot check alone (ArgumentParser calls it after parsing).
    public mutating func validate() throws {
        try engine.validate()
        try wiring.validate(on: engine.arduinoBoard)
        if wiring.isGiven && engine.chosenEngine == .native {
            throw CommandFailure.usage("--display, --display-address, --display-max-clock, --sensor-address, --sensor and --sensor-int wire the avr engine's parts; drop them or use --engine avr")
        }
        try motion.validate()
        try output.validate()
        if output.stats && engine.chosenEngine == .native {
            throw CommandFailure.usage("--stats measures the avr engine's glass; drop it or use --engine avr")
        }
    }

    /// Builds the boards (simavr or native), prints each pty path on stdout, and runs until Ctrl-C or `--duration`.
    public func run() throws {
        let signals: SignalPipe
        do { signals = try SignalPipe.install() } catch {
            error.report()
            throw ExitCode(error.code.rawValue)
        }
        if output.exitWithParent { SignalPipe.stopWhenParentEnds() }
        let boards: [any EmulatedBoard]
        let png: OutputFile?
        do {
            png = try output.pngFile()
            if let file = engine.eeprom { try EEPROMFile.checkWritable(file) }
            let needs = [Self.avrOnly(board: engine.board?.rawValue, wiring: wiring.isGiven, stats: output.stats)?.options,
                         engine.eeprom.map { _ in "--eeprom" }].compactMap { $0 }
            boards = try BoardFactory(engine: engine, motion: motion, wiring: try wiring.resolved(over: .standard, board: engine.arduinoBoard),
                                      firmwareNeededBy: needs.isEmpty ? nil : needs.joined(separator: " and ")).makeBoards()
        } catch {
            error.report()
            throw ExitCode(error.code.rawValue)
        }
        defer { boards.forEach { $0.stop() } }
        let kept = engine.eeprom.flatMap { file in (boards.first as? AVRBoard).map { (file, $0) } }
        if let (file, avr) = kept {
            do throws(CommandFailure) { if let bytes = try EEPROMFile.load(file, size: avr.eeprom.count) { avr.eeprom = bytes } } catch {
                error.report()
                throw ExitCode(error.code.rawValue)
            }
        }
        defer { if let (file, avr) = kept { EEPROMFile.save(avr.eeprom, to: file) } }  // runs before the boards stop: a stopped board has none
        for board in boards {
            if output.stats, let avr = board as? AVRBoard, let art = try? TiltAssets.load() {
                avr.recordGlassStats(renderer: art.renderer)
            }
            board.start()
            // Unbuffered, one line per board, so a script can read the paths at once.
            StandardStreams.out("\(board.serialPath ?? "?")\n")
        }
        if let failure = StandardStreams.outputFailure {
            // Nobody learnt where the boards are: serving them would help no one.
            CommandFailure.system(StandardStreams.lostLine(failure)).report()
            throw ExitCode(ExitStatus.ioError.rawValue)
        }
        do {
            try RunLoop(boards: boards, output: output, png: png, signals: signals).run()
        } catch let failure as CommandFailure {
            throw ExitCode(failure.code.rawValue)
        }
    }
}

extension Tiltsim {
    /// Parses and runs; option errors print as one line (`tiltsim: …`, naming
    /// the fix) without the usage block and end with `ExitStatus.badSettings`
    /// (`tiltsim wokwi`: 1, as wokwi-cli), as in tiltserial.
    public static func runMain(_ arguments: [String]? = nil) -> Never {
        StandardDescriptors.reserve()  // before the pty and the signal pipe take a closed one's number
        // A reader gone (`tiltsim run … | head`, a FIFO's reader) is an EPIPE to handle, not the end of the process.
        Signal.brokenPipe.ignore()
        let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Foundation.exit(0)
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }  // --help
            let message = self.message(for: error)
            // `tiltsim wokwi` exits as wokwi-cli does: 1 for any bad option.
            let usage = arguments.first == WokwiCommand.configuration.commandName ? 1 : ExitStatus.badSettings.rawValue
            if code == .validationFailure {
                // ArgumentParser's own (EX_USAGE): the fix is ours to name.
                StandardStreams.err(UsageErrorLine.line(for: error, arguments: arguments) + "\n")
                Foundation.exit(usage)
            }
            if code == .failure && !message.isEmpty {
                // A `CommandFailure` a validate() threw: its line names the fix.
                CommandFailure.usage(message).report()
                Foundation.exit(usage)
            }
            Foundation.exit(code.rawValue)  // run()'s ExitCode, its line said
        }
    }
}
