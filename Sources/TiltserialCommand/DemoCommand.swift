import ArgumentParser
import Foundation
import BoardEmulator
import SerialIO
import TiltDisplay
import TiltPipeline

#if canImport(Glibc)
import Glibc
#endif

/// `tiltserial demo`: the whole system with no hardware. An emulated board (our
/// firmware in simavr, or the native model) on a pseudo-terminal, the host on
/// its real serial path, and a scripted motion that tours the map and pulls
/// the ribbon.
struct Demo: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the host against an emulated board playing a tour of the map (no hardware needed).",
        discussion: """
            The avr engine runs Hardware/build/tiltserial.elf in simavr (built with make -C Hardware when \
            missing); without the AVR toolchain or simavr it falls back to the native board model.
            """)

    @Option(help: "Board engine: avr (our firmware in simavr) or native (a Swift model of it).")
    var engine: EmulatedBoardFactory.Engine = .avr

    @Option(help: ArgumentHelp("Motion to play: \(Scenarios.names.joined(separator: ", ")).", valueName: "NAME"))
    var scenario = "tour"

    @Flag(help: "Play the motion again and again until Ctrl-C.")
    var forever = false

    @Option(help: ArgumentHelp("Run the board N times faster than real time (board time drives the physics, so the result is the same).", valueName: "N"))
    var speed: Double?

    @Option(help: ArgumentHelp("At the end, save the emulated board's screen as a PNG.", valueName: "FILE"))
    var png: String?

    @OptionGroup var settings: SettingsOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("pins"), help: ArgumentHelp(
        "Keep the pins in this file (default: none; the demo starts with no pins and saves none).", valueName: "FILE"))
    var pinsPath: String?

    func execute(_ context: CommandContext) throws(Failure) {
        guard let script = Scenarios.named(scenario) else {
            throw Failure(.badSettings, "no scenario '\(scenario)'; choose one of \(Scenarios.names.joined(separator: ", "))")
        }
        if let speed, !(speed > 0 && speed <= 1000) {
            throw Failure(.badSettings, "--speed \(speed): give a factor from 0 (exclusive) to 1000, e.g. --speed 4")
        }
        let resolved = try settings.resolve()
        let store = pinsPath.map { PinStore(path: $0) }
        let kept = try store?.load() ?? []
        let logger = context.console.logger()
        let factory = EmulatedBoardFactory(
            engine: engine, pace: speed.map { .speed($0) } ?? .realTime, motion: .script(Scenarios.rest))
        let board: any EmulatedBoard
        do {
            board = try factory.makeBoard { logger.notice("\($0)") }
        } catch {
            throw Failure(.emulatorFailed, "cannot start the emulated board: \(error.description)")
        }
        board.start()
        defer { board.stop() }
        guard let path = board.serialPath else {
            throw Failure(.emulatorFailed, "the emulated board has no serial port; try --engine native")
        }
        let kind = board is AVRBoard ? "avr (our firmware in simavr)" : "native"
        logger.info("demo: \(kind) board on \(path); playing '\(scenario)' (\(Int(script.duration.rounded())) s)…")

        var player = ScenarioPlayer(
            motion: EmulatedBoardFactory(motion: .script(script)).motionSource(rateHz: Double(factory.sampleRateHz)),
            lengthMicros: UInt64((script.duration + Self.settleSeconds) * 1e6), forever: forever)
        let summary = try Run.live(
            path: path, settings: resolved, output: output, record: nil, context: context,
            observe: { event in
                switch player.step(event) {
                case .restart(let motion): board.setMotionSource(motion)
                case .finished: context.stop.wake()
                case .none: break
                }
            }, pinStore: store, pins: kept)

        let speed = board.speedReport()
        context.console.writeErr(
            "tiltserial: demo: \(summary.counters.fires) ribbon pull(s) fired, \(summary.counters.pinsDropped) pin(s) dropped, "
                + "\(summary.pinCount) on the map; the board ran at \(String(format: "%.2f", speed.ratio))× real time\n")
        if let png {
            try PNGFile.write(board.displayedFrame, to: png, failing: .ioError)
            context.console.writeErr("tiltserial: demo: the board's screen is in \(png)\n")
        }
    }

    /// Board seconds to keep running after the motion ends, so its last
    /// movement settles on screen.
    static let settleSeconds = 2.0
}

/// Starts the motion when the board says HELLO (so the host sees all of it,
/// however long the board took to come up) and ends the demo, or starts the
/// motion again, once the motion's length has passed in board time.
struct ScenarioPlayer {
    enum Step { case none, restart(StartOnFirstSample<Motion>), finished }

    let motion: Motion
    let lengthMicros: UInt64
    let forever: Bool
    private var startMicros: UInt64?
    private var lastTickMicros: UInt64 = 0
    private var done = false

    init(motion: Motion, lengthMicros: UInt64, forever: Bool) {
        self.motion = motion
        self.lengthMicros = lengthMicros
        self.forever = forever
    }

    mutating func step(_ event: HostEvent) -> Step {
        switch event {
        case .hello:
            startMicros = nil
            return .restart(StartOnFirstSample(motion))
        case .tick(let tick, _):
            lastTickMicros = tick.timeMicros
            guard let start = startMicros else {
                startMicros = tick.timeMicros
                return .none
            }
            guard !done, tick.timeMicros - start >= lengthMicros else { return .none }
            if forever {
                startMicros = nil
                return .restart(StartOnFirstSample(motion))
            }
            done = true
            return .finished
        default:
            return .none
        }
    }
}

extension EmulatedBoardFactory.Engine: ExpressibleByArgument {}
