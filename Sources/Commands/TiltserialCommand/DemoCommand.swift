import ArgumentParser
import TiltCore
import TiltMotion
import TiltPipeline

/// `tiltserial demo`: the whole system with no hardware. `tiltsim` (our
/// firmware in simavr, or the native board model) runs as a child process on a
/// pseudo-terminal and plays a scripted motion that tours the map and pulls the
/// ribbon; the host runs on its real serial path against it.
struct Demo: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the host against an emulated board playing a tour of the map (no hardware needed).",
        usage: "tiltserial demo [<options>]",  // ArgumentParser's "demo <options>" looked required
        discussion: """
            Starts tiltsim (found beside tiltserial, else on PATH). The avr engine runs our firmware \
            (Hardware/build/tiltserial.elf, or --firmware) in simavr; the native engine is tiltsim's board model.
            """)

    enum Engine: String, CaseIterable, ExpressibleByArgument { case avr, native }

    @Option(help: "Board engine: avr (our firmware in simavr) or native (tiltsim's model of it).")
    var engine: Engine = .avr

    @Option(help: ArgumentHelp("Firmware for --engine avr, an ELF or the Intel HEX the IDE exports (default: the one tiltsim finds, Hardware/build/tiltserial.elf in a source tree).", valueName: "ELF"), completion: .file(extensions: ["elf", "hex"]))
    var firmware: String?

    @Option(help: ArgumentHelp("Motion to play: \(Scenarios.names.joined(separator: ", ")).", valueName: "NAME"), completion: .list(Scenarios.names))
    var scenario = "tour"

    @Flag(help: "Play the motion again and again until Ctrl-C.")
    var forever = false

    @Option(help: ArgumentHelp("Run the board N times faster than real time, 0.01 to 1000 (board time drives the physics, so the result is the same).", valueName: "N"))
    var speed: Double?

    @Option(help: ArgumentHelp("At the end, save the emulated board's screen as a PNG.", valueName: "FILE"), completion: .file(extensions: ["png"]))
    var png: String?

    @OptionGroup var settings: SettingsOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var view: ViewOptions

    @Option(name: .customLong("pins"), help: ArgumentHelp(
        "Keep the pins in this file (default: none; the demo starts with no pins and saves none).", valueName: "FILE"), completion: .file(extensions: ["json"]))
    var pinsPath: String?

    func execute(_ context: CommandContext) throws(Failure) {
        guard let script = Scenarios.named(scenario) else {
            throw Failure(.badSettings, "no scenario '\(scenario)'; choose one of \(Scenarios.names.joined(separator: ", "))")
        }
        if let speed, !(speed >= 0.01 && speed <= 1000) {
            throw Failure(.badSettings, "--speed \(NumberText.plain(speed)): give a factor from 0.01 to 1000, e.g. --speed 4")
        }
        let resolved = try settings.resolve().settings  // no default config file: the emulated board is mounted as the defaults say
        let store = pinsPath.map { PinStore(path: $0, named: true) }  // no default pins file either: the demo starts with none
        let kept = try store?.load() ?? []
        let logger = context.console.logger()
        let board = try EmulatorProcess(arguments: tiltsimArguments)
        defer { board.stop() }
        let stop = context.stop
        board.watch { stop.wake() }  // a board that dies ends the demo (exit 20), not a wait for it
        let kind = engine == .avr ? "avr (our firmware in simavr)" : "native"
        logger.info("demo: \(kind) board on \(board.serialPath); playing '\(scenario)' (\(Int(script.duration.rounded())) s)…")

        var player = ScenarioPlayer(lengthMicros: UInt64((script.duration + Self.settleSeconds) * 1e6), forever: forever)
        let summary = try Run.live(
            path: board.serialPath, settings: resolved, output: output, view: view.view, record: nil, context: context,
            observe: { event in
                if player.step(event) == .finished { context.stop.wake() }
            }, pinStore: store, pins: kept)
        board.stop()  // tiltsim writes the PNG and says how fast the board ran
        if board.endedOnItsOwn {
            let fix = if case .exited? = board.exit { "its message is above" } else { "run the demo again" }  // a killed tiltsim said nothing
            throw Failure(.emulatorFailed, "tiltsim ended during the demo (\(board.exitDescription)); \(fix)")
        }
        context.console.writeErr("tiltserial: demo: \(ForPeople.count(summary.counters.fires, "ribbon pull")) fired, "
            + "\(ForPeople.count(summary.counters.pinsDropped, "pin")) dropped, \(summary.pinCount) on the map\n")
    }

    /// What tiltsim is asked to do: this engine, motion and pace; hold the
    /// board until the host opens the port (its default), so the motion starts
    /// with the host watching; end when we end.
    var tiltsimArguments: [String] {
        // --exit-with-parent: a demo killed outright (SIGKILL) takes its board with it.
        var arguments = ["--engine", engine.rawValue, "--motion", scenario, "--exit-with-parent"]
        if let firmware { arguments += ["--firmware", firmware] }
        if let speed { arguments += ["--speed", String(speed)] }
        if forever { arguments.append("--loop") }
        if let png { arguments += ["--png", png] }
        return arguments
    }

    /// Board seconds to keep running after the motion ends, so its last
    /// movement settles on screen.
    static let settleSeconds = 2.0
}

/// Ends the demo once the motion's length (and a settling time) has passed in
/// board time since the board's first tick after HELLO; never with `forever`.
struct ScenarioPlayer {
    enum Step: Equatable { case none, finished }

    let lengthMicros: UInt64
    let forever: Bool
    private var startMicros: UInt64?
    private var done = false

    init(lengthMicros: UInt64, forever: Bool) {
        self.lengthMicros = lengthMicros
        self.forever = forever
    }

    mutating func step(_ event: HostEvent) -> Step {
        switch event {
        case .hello:
            startMicros = nil
            return .none
        case .tick(let tick, _):
            guard let start = startMicros else {
                startMicros = tick.timeMicros
                return .none
            }
            guard !done, !forever, tick.timeMicros - start >= lengthMicros else { return .none }
            done = true
            return .finished
        default:
            return .none
        }
    }
}
