import ArgumentParser
import BoardEmulator
import Foundation
import SerialIO
import TiltCore
import TiltDisplay
import TiltExitStatus

/// `tiltsim run`: a sketch in simavr for CI, deterministic in simulated time.
struct RunSketch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a sketch (ELF or Intel HEX) in simulated time and check what it prints and shows (for CI).",
        discussion: """
            Runs as fast as the machine allows; every time is simulated, so a run gives the same \
            bytes and screens every time. The sketch's serial output goes to stdout (unless --quiet), \
            what the run checks to stderr. --eeprom FILE keeps the board's EEPROM between runs (read at \
            the start, written at the end; an empty or missing file is an erased EEPROM). Exit codes: 0 passed; 24 an expectation missed (a screen \
            differed, or the sketch halted first) or the sketch crashed; 25 a --fail-serial pattern matched; 26 the time ran out \
            while waiting; 27 the sketch file is missing or bad; 21 bad options; 18 a scenario, motion, \
            reference or output file that is missing, bad or cannot be written (docs/usage.md, "Exit codes").
            """)

    @Argument(help: ArgumentHelp("The sketch: an ELF from avr-gcc, or the .hex the Arduino IDE exports.", valueName: "sketch"), completion: .file(extensions: ["elf", "hex"]))
    var sketch: String

    @OptionGroup(title: "Motion at power-on") var motion: MotionOptions
    @OptionGroup(title: "Wiring") var wiring: WiringOptions

    @OptionGroup var board: BoardOption

    /// `--eeprom`, and the pty board's options this refuses (`Tiltsim.ptyBoardOptions`).
    @ParentCommand var root: Tiltsim

    private var arduinoBoard: ArduinoBoard { board.arduino }

    @Option(help: ArgumentHelp("Steps to take (YAML, or JSON by the .json extension): wait for serial text, set the motion, send serial input, wait, save or expect the screen.", valueName: "file"), completion: .file(extensions: ["yaml", "yml", "json"]))
    var scenario: String?

    @Option(name: .customLong("expect-serial"), help: ArgumentHelp("A regular expression a serial line must match; repeat for several, matched in order (after the scenario's steps).", valueName: "regex"))
    var expectSerial: [String] = []

    @Option(name: .customLong("fail-serial"), help: ArgumentHelp("A regular expression that fails the run when a serial line matches it; repeatable.", valueName: "regex"))
    var failSerial: [String] = []

    @Option(help: ArgumentHelp("Save the screen (PNG, 4x, lit pixels as bright as the contrast makes them) at this simulated time; repeatable.", valueName: "seconds:file.png"))
    var screenshot: [String] = []

    @Option(name: .customLong("expect-screen"), help: ArgumentHelp("At this simulated time the screen must equal this PNG (as --screenshot writes it): the same pixels lit, as bright; repeatable.", valueName: "seconds:file.png"))
    var expectScreen: [String] = []

    @Option(help: ArgumentHelp("Simulated seconds before the run ends (default: the scenario's, else 30); waiting past it exits 26.", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .customLong("serial-log"), help: ArgumentHelp("Also write the sketch's serial output (raw bytes) to this file.", valueName: "file"), completion: .file())
    var serialLog: String?

    @Option(name: .customLong("usb-log"), help: ArgumentHelp("Write each USB HID report an ATmega32U4 board's sketch sends (leonardo, micro, promicro-8mhz: a mouse's, a keyboard's, HID().SendReport) to this file, a line each: simulated seconds, endpoint, bytes in hex.", valueName: "file"), completion: .file())
    var usbLog: String?

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "Do not copy the serial output to stdout.")
    var quiet = false

    static let defaultTimeoutSeconds = 30.0

    func validate() throws {
        let dropped = root.ptyBoardOptions(forWokwi: false)
        if !dropped.isEmpty {
            throw CommandFailure.usage("\(dropped.joined(separator: ", ")): for tiltsim's board on a pseudo-terminal, not tiltsim run "
                + "(its own: --screenshot, --timeout, --board, --serial-log, --eeprom; tiltsim run --help)")
        }
        try motion.validate()
        try wiring.validate(on: arduinoBoard)
        for pattern in expectSerial + failSerial {
            if let problem = SketchRun.patternProblem(pattern) { throw CommandFailure.usage(problem) }
        }
        if let timeout, !(timeout > 0 && timeout <= 86_400) { throw CommandFailure.usage("--timeout \(NumberText.plain(timeout)): use simulated seconds above 0, at most 86400") }
        for (option, values) in [("--screenshot", screenshot), ("--expect-screen", expectScreen)] {
            for value in values { _ = try Self.timedFile(value, option) }
        }
    }

    /// "SECONDS:FILE" → (µs, file).
    static func timedFile(_ value: String, _ option: String) throws -> (micros: UInt64, file: String) {
        guard let colon = value.firstIndex(of: ":"), let seconds = Double(value[..<colon]), seconds >= 0, seconds <= 86_400,
              value.index(after: colon) < value.endIndex else {
            throw CommandFailure.usage("\(option) \(shortened(value)): write SECONDS:FILE.png, e.g. \(option) 2.5:screen.png")
        }
        return (UInt64((seconds * 1e6).rounded()), String(value[value.index(after: colon)...]))
    }

    func run() throws {
        // Their default action ends the run; a parent may have left them blocked.
        SignalPipe.unblock([.interrupt, .terminate])
        let code: Int32
        do throws(CommandFailure) {
            code = try execute()
        } catch {
            error.report()
            throw ExitCode(error.code.rawValue)
        }
        if let failure = StandardStreams.outputFailure, code == 0 {
            CommandFailure.system(StandardStreams.lostLine(failure)).report()
            throw ExitCode(ExitStatus.ioError.rawValue)
        }
        if code != 0 { throw ExitCode(code) }
    }

    private func execute() throws(CommandFailure) -> Int32 {
        let file = try scenario.map { path throws(CommandFailure) in try ScenarioFile.load(path, noise: motion.noise, board: arduinoBoard) }
        let timeoutSeconds = timeout ?? file?.timeoutSeconds ?? Self.defaultTimeoutSeconds
        let timeoutMicros = UInt64((timeoutSeconds * 1e6).rounded())
        var timed: [TimedScreen] = []
        var outputs = file?.screenshotPaths ?? []
        for value in screenshot {
            let (micros, path) = try Self.timed(value, "--screenshot", before: timeoutMicros)
            timed.append(TimedScreen(atMicros: micros, action: .save(name: path)))
            outputs.append(path)
        }
        for value in expectScreen {
            let (micros, path) = try Self.timed(value, "--expect-screen", before: timeoutMicros)
            let reference = try ReferenceScreen.load(path)
            timed.append(TimedScreen(atMicros: micros, action: .expect(name: path, screen: reference.screen, brightness: reference.brightness)))
        }
        let screenFiles = try OutputFile.each(outputs, what: "a PNG")
        let log = try serialLog.map { path throws(CommandFailure) in try LogFile(path) }
        let reportLog = try usbLog.map { path throws(CommandFailure) in try LogFile(path, what: "the USB report log") }
        var reportsSeen = false

        // A sketch's own sensor lies on the table at power-on, as Wokwi starts it (calibrating sketches expect that).
        let path = motion.isGiven ? try motion.path() : file?.motion ?? .script(Scenarios.flat)
        let noise = file?.noise ?? motion.noise
        let source = Motion(path, noise: noise > 0 ? SensorNoise(sampleRate: 100, seed: 0x5EED, scale: noise) : .none, loops: motion.loop)
        let wired = try wiring.resolved(over: file?.wiring ?? .standard, board: arduinoBoard)
        var configuration = AVRMachine.Configuration(firmwarePath: sketch, motionSource: source)
        configuration.configure(for: arduinoBoard)
        wired.apply(to: &configuration, board: arduinoBoard)
        let machine: AVRMachine
        do { machine = try AVRMachine(configuration) } catch {
            throw .firmware(error.description)
        }
        let saveEEPROM = try EEPROMFile.keep(root.engine.eeprom, in: machine)
        defer { saveEEPROM() }
        let plan = RunPlan(timeoutMicros: timeoutMicros, failPatterns: (file?.failPatterns ?? []) + failSerial,
                           steps: (file?.steps ?? []) + expectSerial.map { .waitSerial(pattern: $0, timeoutMicros: nil) },
                           timedScreens: timed)
        var writeFailure: CommandFailure?
        if wired != .standard { say("\(SketchRun.seconds(0)): wired: \(wired.summary(on: arduinoBoard))") }
        let run = SketchRun(machine: machine, plan: plan)
        /// An output that cannot be written ends the run there, its time said (docs/emulator.md, "Output files").
        func failed(_ failure: CommandFailure?, atMicros micros: UInt64) {
            guard let failure, writeFailure == nil else { return }
            writeFailure = CommandFailure(failure.code, "at \(SketchRun.seconds(micros)) " + failure.message)
            run.stop()
        }
        let outcome = run.run { event in
            switch event {
            case .serial(let bytes):
                if !quiet { StandardStreams.out(bytes) }
                log?.write(bytes)
                failed(log?.failure, atMicros: machine.simulatedMicros)
            case .screen(let name, let screen, let brightness, let micros):
                do throws(CommandFailure) {
                    try PNGFile.write(screen, to: OutputFile.named(name, in: screenFiles, what: "a PNG"), lit: brightness)
                    say("\(SketchRun.seconds(micros)): saved the screen to \(name)")
                } catch {
                    failed(error, atMicros: micros)
                }
            case .screenMismatch(let name, let actual, let brightness, let micros):
                let actualPath = Self.actualPath(for: name)
                if (try? PNGFile.write(actual, to: OutputFile(actualPath, what: "a PNG"), lit: brightness)) != nil {
                    say("\(SketchRun.seconds(micros)): the screen it showed instead is in \(actualPath)")
                }
            case .note(let text, let micros), .caveat(let text, let micros):
                say("\(SketchRun.seconds(micros)): \(text)")
            case .stepBegins(let name, let micros):
                say("\(SketchRun.seconds(micros)): step \(name)")
            case .usbReport(let report):
                reportLog?.write(Array("\(Self.logSeconds(report.atMicros)) \(report.line)\n".utf8))
                failed(reportLog?.failure, atMicros: report.atMicros)
                if !reportsSeen && reportLog == nil {
                    say("\(SketchRun.seconds(report.atMicros)): the sketch sends USB reports (endpoint \(report.endpoint)); --usb-log FILE keeps them")
                }
                reportsSeen = true
            }
        }
        let (logFailure, reportLogFailure) = (log?.close(), reportLog?.close())
        if let failure = writeFailure ?? logFailure ?? reportLogFailure { throw failure }
        let (exit, verdict): (ExitStatus, String) = switch outcome {
        case .passed: (.success, "passed")
        case .missedExpectation(let why): (.expectationMissed, "FAILED, expectation missed: \(why)")
        case .crashed(let why): (.expectationMissed, "FAILED: \(why)")
        case .failureText(let why): (.failureText, "FAILED, failure text: \(why)")
        case .timedOut(let why): (.timedOut, "FAILED, timed out: \(why)")
        case .stopped: (.ioError, "stopped")  // only by `failed`, whose failure is thrown above
        }
        say("\(verdict) (\(SketchRun.seconds(machine.simulatedMicros)) simulated)")
        return exit.rawValue
    }

    private static func timed(_ value: String, _ option: String, before timeout: UInt64) throws(CommandFailure) -> (UInt64, String) {
        guard let (micros, path) = try? timedFile(value, option) else { throw .usage("\(option) \(shortened(value)): write SECONDS:FILE.png") }
        guard micros <= timeout else {
            throw .usage("\(option) \(shortened(value)): after the run ends (\(SketchRun.seconds(timeout))); raise --timeout")
        }
        return (micros, path)
    }

    /// "0.022108": simulated seconds to the microsecond, for logs.
    static func logSeconds(_ micros: UInt64) -> String {
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// Where the screen that differed from `reference` goes: beside it, ".actual.png".
    static func actualPath(for reference: String) -> String {
        let stem = reference.lowercased().hasSuffix(".png") ? String(reference.dropLast(4)) : reference
        return stem + ".actual.png"
    }

    private func say(_ line: String) {
        StandardStreams.err("tiltsim run: \(line)\n")
    }
}

/// `--serial-log` (the raw bytes) and `--usb-log` (a line a report), written
/// as they come: a regular file created afresh, a device or FIFO written in
/// place (`OutputFile`). The first failed write stops the log; `close` says it.
final class LogFile {
    private let file: WritableFile
    private let path: String
    private let what: String
    /// The failure that stopped the log, once a write failed.
    private(set) var failure: CommandFailure?

    init(_ path: String, what: String = "the serial log") throws(CommandFailure) {
        self.path = path
        self.what = what
        if let device = try OutputFile.openIfNotRegular(path, what: what) {
            file = device
            return
        }
        switch WritableFile.create(path) {
        case .success(let created): file = created
        case .failure(let error): throw .cannotCreate("\(path): cannot write \(what) there (\(error)); pick a writable path")
        }
    }

    func write(_ bytes: [UInt8]) {
        guard failure == nil, let error = file.write(bytes, patience: OutputFile.patience) else { return }
        failure = OutputFile.writeFailure(path, what, timedOut: error == .timedOut, reason: "\(error)")
    }

    /// Closes the file; the failure that stopped the log, if one did.
    func close() -> CommandFailure? {
        file.close()
        return failure
    }
}
