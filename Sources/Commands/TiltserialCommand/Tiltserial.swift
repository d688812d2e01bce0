import ArgumentParser
import SerialIO
import TiltCore
import TiltExitStatus
import TiltVersion
import WireProtocol

/// What a subcommand runs with: where output goes and what stops it.
public struct CommandContext: Sendable {
    /// Where the command writes its data (stdout) and its text for people (stderr).
    public let console: Console
    /// Woken by Ctrl-C/SIGTERM (when `handleSignals`) or by an in-process caller.
    public let stop: WakeUpPipe
    /// Install SIGINT/SIGTERM handlers that wake `stop` (the real command does; tests don't).
    public let handleSignals: Bool
    /// Where the default config file and the notice's mark live (from the
    /// process's environment for the real command; tests pass their own, and
    /// with none there is no default config file).
    public let paths: ConfigPaths
    /// Where `setup` reads a person's answers, a line at a time (nil: end of
    /// input): stdin for the real command; tests script it.
    public var readLine: @Sendable () -> String?
    /// True when a person can answer (`setup` asks only then): stdin is a terminal for the real command.
    public var inputIsTerminal = TerminalInfo.isTerminal(0)

    /// A context whose config paths come from `environment` (empty: no default config file, no notice mark).
    public init(console: Console, stop: WakeUpPipe, handleSignals: Bool, environment: [String: String] = [:]) {
        self.console = console
        self.stop = stop
        self.handleSignals = handleSignals
        paths = ConfigPaths(environment: environment)
        readLine = { PromptLine.read(stopping: stop) }
    }

    /// The variables `ConfigPaths` reads, from this process's environment.
    public static var processEnvironment: [String: String] {
        var environment: [String: String] = [:]
        for name in ConfigPaths.variables {
            if let value = ProcessEnvironment.value(name) { environment[name] = value }
        }
        return environment
    }
}

/// A subcommand body that reports failures as `Failure` (exit code + one line).
protocol TiltserialSubcommand: ParsableCommand {
    func execute(_ context: CommandContext) throws(Failure)
}

/// `tiltserial`: the host for the tilt board.
public struct Tiltserial: ParsableCommand {
    /// The command's name, help text, subcommands (`run` the default) and `--version` line.
    public static let configuration = CommandConfiguration(
        commandName: "tiltserial",
        abstract: "Scroll the board's display by tilting it: reads the accelerometer, writes scroll offsets back.",
        // ArgumentParser's "tiltserial <subcommand>" hid the default command's port.
        usage: "tiltserial [<port>] [<options>]\ntiltserial <subcommand> [<options>]",
        discussion: "Exit codes and the --json schema: docs/usage.md (installed in PREFIX/share/doc/tiltserial).",
        version: Tiltserial.version,
        subcommands: [Run.self, List.self, Monitor.self, Replay.self, Demo.self, Calibrate.self, Setup.self, Pins.self],
        defaultSubcommand: Run.self)

    /// An empty command, as ArgumentParser needs; the subcommands carry the options.
    public init() {}

    /// What `--version` prints: the tools' version and the wire protocol they speak.
    public static let version = "tiltserial \(TiltVersion.number) (wire protocol \(WireFormat.version))"
}

/// The entry points: the real process and in-process callers (tests, demo).
public enum TiltserialMain {
    /// Parses `arguments` (without the program name), runs, returns the exit code.
    public static func run(arguments: [String], context: CommandContext) -> Int32 {
        if answeredWithoutParsing(arguments, context.console) { return 0 }
        if let unknown = unknownHelpTopic(arguments) {
            // ArgumentParser printed the main help for it and exit 0.
            context.console.writeErr("tiltserial: error: help \(OneLineText.escaped(unknown, limit: 80)): no such command; "
                + "tiltserial --help lists them\n")
            return ExitStatus.badSettings.rawValue
        }
        var command: ParsableCommand
        do {
            command = try Tiltserial.parseAsRoot(arguments)
            guard let sub = command as? TiltserialSubcommand else {
                try command.run()  // `help`, `--help`: ArgumentParser's own commands
                return 0
            }
            command = sub
        } catch {
            return report(error, arguments: arguments, context.console)
        }
        do {
            try (command as! TiltserialSubcommand).execute(context)
            return 0
        } catch {
            context.console.writeErr("tiltserial: error: \(OneLineText.escaped(error.message, limit: 4096))\n")
            return error.code.rawValue
        }
    }

    /// `tiltserial --help`, `-h` or `--version` alone: ArgumentParser's own
    /// help text and version, without its full parse. That parse reflects over
    /// every subcommand's options (the default `run` has dozens) before it finds
    /// the flag, and was most of these commands' start-up (docs/perf/startup.md).
    /// HelpFastPathTests checks the output is the parse's, byte for byte.
    static func answeredWithoutParsing(_ arguments: [String], _ console: Console) -> Bool {
        switch arguments {
        case ["--help"], ["-h"]: console.writeOut(Tiltserial.helpMessage() + "\n")
        case ["--version"]: console.writeOut(Tiltserial.configuration.version + "\n")
        default: return false
        }
        return true
    }

    /// The word after `help` when it names no command (`tiltserial help nosuch`).
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.count >= 2, arguments[0] == "help", !arguments[1].hasPrefix("-") else { return nil }
        let names = Tiltserial.configuration.subcommands.map { $0._commandName } + ["help"]
        return names.contains(arguments[1]) ? nil : arguments[1]
    }

    /// Help, `--version` and completion scripts go to stdout with code 0; usage
    /// errors to stderr as one line (`UsageErrorLine`) with code badSettings.
    static func report(_ error: any Error, arguments: [String], _ console: Console) -> Int32 {
        if Tiltserial.exitCode(for: error) == .success {
            console.writeOut(Tiltserial.fullMessage(for: error) + "\n")
            return 0
        }
        console.writeErr(UsageErrorLine.line(for: error, arguments: arguments) + "\n")
        return ExitStatus.badSettings.rawValue
    }

    /// `main.swift` calls this.
    public static func main() -> Never {
        StandardDescriptors.reserve()  // before the wake-up pipe and the port take a closed one's number
        // A closed stdout (`--json | head`) shows up as EPIPE and stops the run
        // with its summary, rather than killing the process mid-write.
        Signal.brokenPipe.ignore()
        // Past a file-size limit (`ulimit -f`) a write fails with EFBIG, which
        // stops the recording and not the run, where SIGXFSZ killed it mid-view.
        Signal.fileSizeLimit.ignore()
        guard let stop = try? WakeUpPipe() else {
            Console.standard().writeErr("tiltserial: error: cannot create a pipe; the system is out of descriptors\n")
            ProcessEnvironment.exit(ExitStatus.ioError.rawValue)
        }
        let console = Console.standard(onStdoutClosed: { stop.wake() })
        let context = CommandContext(console: console, stop: stop, handleSignals: true, environment: CommandContext.processEnvironment)
        let code = run(arguments: Array(CommandLine.arguments.dropFirst()), context: context)
        ProcessEnvironment.exit(outputLost(console, code: code))
    }

    /// A run whose stdout failed (a full disk, EIO) lost data it was asked for:
    /// it says so and ends with ioError, not with the code of a whole run.
    static func outputLost(_ console: Console, code: Int32) -> Int32 {
        guard let failure = console.outputFailure, code == ExitStatus.success.rawValue else { return code }
        console.writeErr("tiltserial: error: writing stdout failed (\(failure.description), errno \(failure.rawValue)); "
                         + "what came after is lost: check where stdout goes (its disk may be full), or send it elsewhere\n")
        return ExitStatus.ioError.rawValue
    }
}

extension TiltserialSubcommand {
    mutating func run() throws {
        guard let stop = try? WakeUpPipe() else { throw ExitCode(ExitStatus.ioError.rawValue) }
        let context = CommandContext(console: .standard(), stop: stop, handleSignals: true, environment: CommandContext.processEnvironment)
        do { try execute(context) } catch {
            Console.standard().writeErr("tiltserial: error: \(OneLineText.escaped(error.message, limit: 4096))\n")
            throw ExitCode(error.code.rawValue)
        }
    }
}
