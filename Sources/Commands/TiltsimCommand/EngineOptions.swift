import ArgumentParser
import BoardEmulator
import TiltCore
import TiltExitStatus

/// Which board model runs, how fast, and on which pty.
struct EngineOptions: ParsableArguments {
    enum Engine: String, ExpressibleByArgument, CaseIterable {
        case avr, native
    }

    @Option(help: "avr: the real firmware in simavr; native: the Swift board model. Default avr, or native when --rate, --boards or --faults is given.")
    var engine: Engine?

    @Option(help: ArgumentHelp("Keep the board's EEPROM (what tiltserial setup stores) in this file: read at start (missing: a new board's, erased), written at exit. avr only.", valueName: "file"), completion: .file())
    var eeprom: String?

    @Option(help: ArgumentHelp("Firmware for --engine avr, an ELF or the Intel HEX the IDE exports (default: the installed PREFIX/share/tiltserial/tiltserial.elf, else Hardware/build/tiltserial.elf of the source tree tiltsim was built in, by make -C Hardware).", valueName: "path"), completion: .file(extensions: ["elf", "hex"]))
    var firmware: String?

    /// `--board`: whose build of the firmware runs (Hardware/build/BOARD/tiltserial.elf, by make -C Hardware BOARD=…).
    @OptionGroup var boardOption: BoardOption
    var board: ArduinoBoard? { boardOption.board }

    @Option(help: ArgumentHelp("Samples per second (native).", valueName: "hz"))
    var rate: Int?

    @Option(help: ArgumentHelp("Board seconds per wall second, 0.01 to 1000 (default 1).", valueName: "factor"))
    var speed: Double?

    @Flag(help: "Run as fast as the host allows (avr: as fast as simavr can; native: as fast as the reader reads).")
    var freeRunning = false

    @Option(help: ArgumentHelp("Keep a symlink here pointing at the pty (with --boards N: PATH-1 ... PATH-N).", valueName: "path"), completion: .file())
    var link: String?

    @Option(help: ArgumentHelp("Number of boards, each on its own pty (native).", valueName: "n"))
    var boards: Int?

    @Option(help: ArgumentHelp("Injected faults (native), e.g. flip=1e-3,drop=1e-3,insert=1e-3,garbage=1e-4,seed=1.", valueName: "spec"))
    var faults: String?

    @Flag(help: "Start the board at once instead of holding it off (avr: in reset) until a host first opens its port.")
    var runNow = false

    /// The board chosen, the Uno by default.
    var arduinoBoard: ArduinoBoard { boardOption.arduino }

    var chosenEngine: Engine {
        engine ?? (rate != nil || boards != nil || faults != nil ? .native : .avr)
    }

    var pace: BoardPace {
        if freeRunning { return .freeRunning }
        if let speed { return .speed(speed) }
        return .realTime
    }

    var faultSpec: FaultSpec {
        get throws {
            guard let faults else { return .none }
            do { return try FaultSpec(parsing: faults) } catch { throw CommandFailure.usage("--faults: \(error.description)") }
        }
    }

    func validate() throws {
        if let rate, !(1...20_000).contains(rate) { throw CommandFailure.usage("--rate \(rate): use 1 to 20000 samples per second") }
        if let speed, !(speed >= 0.01 && speed <= 1000) { throw CommandFailure.usage("--speed \(NumberText.plain(speed)): give a factor from 0.01 to 1000, e.g. --speed 4") }
        if freeRunning && speed != nil { throw CommandFailure.usage("--speed and --free-running exclude each other; pick one") }
        if let boards, !(1...64).contains(boards) { throw CommandFailure.usage("--boards \(boards): use 1 to 64") }
        _ = try faultSpec
        if engine == .avr {
            for (given, name) in [(rate != nil, "--rate"), (boards != nil, "--boards"), (faults != nil, "--faults")] where given {
                throw CommandFailure.usage("\(name) applies to --engine native only; drop it or use --engine native")
            }
        }
        if eeprom != nil && chosenEngine == .native {
            throw CommandFailure.usage("--eeprom keeps the avr engine's EEPROM; drop it or use --engine avr")
        }
        if engine == .native && firmware != nil {
            throw CommandFailure.usage("--firmware applies to --engine avr only; drop it or use --engine avr")
        }
        if board != nil && chosenEngine == .native {
            // --rate, --boards or --faults chose the native engine without saying so.
            guard engine == nil, let option = [(rate != nil, "--rate"), (boards != nil, "--boards"), (faults != nil, "--faults")]
                .first(where: { $0.0 })?.1 else {
                throw CommandFailure.usage("--board applies to --engine avr only; drop it or use --engine avr")
            }
            throw CommandFailure.usage("--board runs the board's firmware (--engine avr), but \(option) chose the native engine; "
                + "drop \(option) (the firmware samples at the rate its host asks for) or drop --board")
        }
    }

    /// The link for board `index` of `count`.
    func linkPath(_ index: Int, of count: Int) -> String? {
        guard let link else { return nil }
        return count == 1 ? link : "\(link)-\(index + 1)"
    }
}
