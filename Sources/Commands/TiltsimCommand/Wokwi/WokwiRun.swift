import BoardEmulator
import Foundation
import SerialIO
import TiltCore
import TiltExitStatus

/// One `tiltsim wokwi` run: reads the project, builds the machine, runs the
/// plan with `SketchRun` and prints wokwi-cli's verdict lines. Status goes to
/// stdout as wokwi-cli prints it (unless -q); errors to stderr.
struct WokwiRun {
    let options: WokwiCommand

    /// A path given relative to the project, or absolute (wokwi-cli's `path.resolve(rootDir, …)`).
    static func inProject(_ path: String, _ folder: String) -> String {
        path.hasPrefix("/") ? path : folder + "/" + path
    }

    func execute() throws(CommandFailure) -> Int32 {
        let folder = options.projectPath
        let elf = WokwiCommand.given(options.elf)
        // Empty is unset, as for every other option (wokwi-ci-action passes its unset inputs so).
        let timeoutMillis = try Self.integer(WokwiCommand.given(options.timeout) ?? "30000", "--timeout", example: "30000")
        let timeoutExit = try Self.integer(WokwiCommand.given(options.timeoutExitCode) ?? "42", "--timeout-exit-code", example: "42")
        guard timeoutExit <= 255 else {
            throw .usage("--timeout-exit-code \(timeoutExit): an exit code is 0 to 255 (the shell sees it modulo 256)")
        }
        let configPath = folder + "/wokwi.toml"
        let diagramPath = Self.inProject(WokwiCommand.given(options.diagramFile) ?? "diagram.json", folder)
        let hasConfig = FileManager.default.fileExists(atPath: configPath)
        guard elf != nil || hasConfig else {
            throw .file("wokwi.toml not found in \(folder); add one ([wokwi] version = 1, firmware = '…') or pass --elf")
        }
        guard FileManager.default.fileExists(atPath: diagramPath) else {
            throw .file("diagram file not found: \(diagramPath); add one, or name it with --diagram-file")
        }
        var firmware = elf
        var configElf: String?
        if hasConfig {
            let config = try Self.read(configPath, WokwiConfig.parse)
            for notice in config.notices { warn(notice) }
            firmware = elf ?? folder + "/" + config.firmware
            configElf = elf == nil ? config.elf.map { folder + "/" + $0 } : nil
        }
        guard let firmware, FileManager.default.fileExists(atPath: firmware) else {
            throw .file("firmware file not found: \(firmware ?? "?"); check the firmware path in wokwi.toml (build the sketch first)")
        }
        // wokwi-cli uploads the ELF too, and stops when wokwi.toml names one that is missing.
        if let configElf, !FileManager.default.fileExists(atPath: configElf) {
            throw .file("ELF file not found: \(configElf); check the elf path in wokwi.toml (build the sketch first)")
        }
        let diagram = try Self.read(diagramPath, WokwiDiagram.parse)
        let setup: WokwiSetup
        switch WokwiSetup.resolve(diagram, file: diagramPath) {
        case .success(let resolved): setup = resolved
        case .failure(let problem): throw .file(problem.message)
        }
        for notice in setup.notices { warn(notice) }
        let scenario = try WokwiCommand.given(options.scenario).map { path throws(CommandFailure) in
            try WokwiScenario.load(Self.inProject(path, folder), setup: setup)
        }
        for notice in scenario?.notices ?? [] { warn(notice) }
        let expectText = WokwiCommand.given(options.expectText), failText = WokwiCommand.given(options.failText)

        let timeoutMicros = timeoutMillis == 0 ? UInt64.max : UInt64(timeoutMillis) * 1000
        var plan = RunPlan(timeoutMicros: timeoutMicros, steps: scenario?.steps ?? [])
        plan.passTexts = expectText.map { [$0] } ?? []
        plan.failTexts = failText.map { [$0] } ?? []
        if scenario == nil && expectText == nil && timeoutMillis > 0 {
            plan.steps = [.wait(micros: timeoutMicros)]  // nothing to wait for: wokwi-cli runs to its timeout
        }
        if let scenario, scenario.steps.isEmpty {
            plan.steps = [.wait(micros: 0)]  // `steps: []`: wokwi-cli's scenario completes at once (it ran to the timeout, or for ever with 0)
        }
        let screenshotFile = WokwiCommand.given(options.screenshotFile) ?? "screenshot.png"
        var outputs = scenario?.savePaths ?? []
        if let part = WokwiCommand.given(options.screenshotPart), let time = WokwiCommand.given(options.screenshotTime) {
            let millis = try Self.integer(time, "--screenshot-time", example: "1500")
            if timeoutMillis > 0 && millis > timeoutMillis {
                throw .usage("Screenshot time (\(millis)ms) can't be greater than the timeout (\(timeoutMillis)ms).")
            }
            guard part == setup.displayID else { throw .usage("--screenshot-part \(shortened(part)): tiltsim takes screenshots of the SSD1306 on the bus only") }
            plan.timedScreens = [TimedScreen(atMicros: UInt64(millis) * 1000, action: .save(name: screenshotFile))]
            outputs.append(screenshotFile)
        }
        let screenFiles = try OutputFile.each(outputs, what: "a PNG")
        let log = try WokwiCommand.given(options.serialLogFile).map { path throws(CommandFailure) in try LogFile(path) }

        var configuration = AVRMachine.Configuration(firmwarePath: firmware, motionSource: ConstantMotionSource(setup.sensorState.sample))
        configuration.configure(for: setup.board.arduino)
        setup.wiring.apply(to: &configuration, board: setup.board.arduino)
        configuration.serialPort = setup.serialPort
        if let hertz = setup.frequency { configuration.frequency = hertz }
        let machine: AVRMachine
        do { machine = try AVRMachine(configuration) } catch {
            throw .firmware(Self.describe(error, board: setup.board))
        }
        for input in setup.analogInputs { machine.setAnalogInput(channel: input.channel, millivolts: input.millivolts) }
        for pull in setup.pulls { machine.pullPin(pull.pin, high: pull.high) }
        for strap in setup.straps { machine.drivePin(strap.pin, high: strap.high) }
        let leftOut = setup.jumpers.filter { !machine.joinPins($0, $1) }
        if !leftOut.isEmpty {
            let board = setup.board.arduino
            let wires = leftOut.map { "\(board.name(of: $0))–\(board.name(of: $1))" }
            warn("more wires between the board's pins than tiltsim models (16 nets of 8 pins): left out "
                 + (wires.count > 8 ? wires.prefix(8).joined(separator: ", ") + " and \(wires.count - 8) more" : wires.joined(separator: ", ")))
        }
        for ranger in setup.rangers { machine.addUltrasonicRanger(trigger: ranger.trigger, echo: ranger.echo, centimetres: ranger.centimetres) }
        for pin in setup.thermometers.map(\.pin).reduce(into: [AVRPin](), { if !$0.contains($1) { $0.append($1) } }) {
            machine.addOneWireBus(pin: pin, probes: setup.thermometers.filter { $0.pin == pin }.map(\.probe))
        }
        for cell in setup.loadCells { machine.addLoadCell(clock: cell.clock, data: cell.data, kilograms: 0) }
        for sensor in setup.humiditySensors { machine.addHumiditySensor(pin: sensor.pin, celsius: sensor.celsius, humidity: sensor.humidity) }
        for (_, light) in setup.lightSensors {
            if let channel = light.channel { machine.setAnalogInput(channel: channel, millivolts: light.sensor.millivolts) }
            if let pin = light.digital { machine.drivePin(pin, high: light.sensor.digitalHigh) }
        }
        let saveEEPROM = try EEPROMFile.keep(options.root.engine.eeprom, in: machine)
        defer { saveEEPROM() }
        let run = SketchRun(machine: machine, plan: plan)
        if options.interactive { run.input = StdinBytes.shared.take }
        status("Starting simulation...")
        var writeFailure: CommandFailure?
        /// A log or screenshot that cannot be written ends the run there (exit 1, as wokwi-cli's file errors).
        func failed(_ failure: CommandFailure?) {
            guard let failure, writeFailure == nil else { return }
            writeFailure = CommandFailure(failure.code, "[\(machine.simulatedMicros * 1000)ns] " + failure.message)
            run.stop()
        }
        var lines = StatusBetweenLines()
        let outcome = run.run { event in
            switch event {
            case .serial(let bytes):
                StandardStreams.out(Array(lines.serial(bytes)))
                log?.write(bytes)
                failed(log?.failure)
            case .screen(let name, let screen, _, _):
                do throws(CommandFailure) { try WokwiScreenshot.write(screen, to: OutputFile.named(name, in: screenFiles, what: "a PNG")) } catch {
                    failed(error)
                }
            case .screenMismatch(let name, let actual, _, _):
                let actualPath = RunSketch.actualPath(for: name)
                if (try? WokwiScreenshot.write(actual, to: OutputFile(actualPath, what: "a PNG"))) != nil { status("the screen it showed instead is in \(actualPath)") }
            case .usbReport:
                break  // Wokwi has no native-USB board
            case .note(let text, let micros):
                if let name = scenario?.name, let line = lines.status("[\(name)] \(SketchRun.seconds(micros)): \(text)", shown: !options.quiet) {
                    status(line)
                }
            case .caveat(let text, let micros):
                warn("[\(scenario?.name ?? "wokwi")] \(SketchRun.seconds(micros)): \(text)")  // -q keeps it: a pass that proves little
            case .stepBegins(let step, _):
                // wokwi-cli's own scenario lines show even with -q.
                if let name = scenario?.name, let line = lines.status("[\(name)] Executing step: \(step)", shown: true) {
                    StandardStreams.out(line + "\n")
                }
            }
        }
        for short in machine.pinShorts {
            let board = setup.board.arduino
            warn("\(board.name(of: short.first)) and \(board.name(of: short.second)) are wired together and were outputs at opposite levels "
                 + "from \(SketchRun.seconds(short.atMicros))"
                 + (short.times > 1 ? ", \(short.times) times (the last from \(SketchRun.seconds(short.lastMicros)))" : "")
                 + ": a short circuit on a board, which can damage both pins "
                 + "(make one an input, or take the wire off); here each read its own level")
        }
        if let failure = writeFailure ?? log?.close() { throw failure }
        let nanos = machine.simulatedMicros * 1000
        switch outcome {
        case .passed where run.passedBy != nil:
            status("\n\nExpected text found: \"\(shortened(run.passedBy!))\"")
            status("TEST PASSED.")
            return 0
        case .passed where scenario != nil:
            if let line = lines.status("[\(scenario!.name)] Scenario completed successfully", shown: true) {
                StandardStreams.out(line + "\n")  // shown with -q too, as wokwi-cli's
            }
            return 0
        case .passed, .timedOut:
            StandardStreams.err("\nTimeout: simulation did not finish in \(timeoutMillis)ms\n")
            return Int32(truncatingIfNeeded: timeoutExit)
        case .failureText:
            StandardStreams.err("\n\nError: Unexpected text found: \"\(shortened(failText ?? ""))\"\nTEST FAILED.\n")
            return 1
        case .missedExpectation(let why), .crashed(let why):
            StandardStreams.err("Error: [\(nanos)ns] \(why)\n")
            return 1
        case .stopped:
            return 1  // only by `failed`, whose failure is thrown above
        }
    }

    /// wokwi-cli's status lines: stdout, unless -q.
    private func status(_ line: String) {
        if !options.quiet { StandardStreams.out((line + "\n")) }
    }

    /// What tiltsim leaves out of the project (a part it does not model, a
    /// wire it cannot follow): stderr, with -q too. As status lines, -q hid
    /// them, and a CI job never learnt that its servo or LCD was ignored.
    private func warn(_ line: String) {
        StandardStreams.err(line + "\n")
    }

    /// A whole number of milliseconds (or an exit code) from an option.
    private static func integer(_ text: String, _ option: String, example: String) throws(CommandFailure) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0, value <= 86_400_000 else {
            throw .usage("\(option) \(shortened(text)): give a whole number, e.g. \(option) \(example)")
        }
        return value
    }

    private static func read<T>(_ path: String, _ parse: (Data, String) -> Result<T, WokwiProblem>) throws(CommandFailure) -> T {
        let data = try InputFile.read(path, what: (path as NSString).lastPathComponent)
        switch parse(data, path) {
        case .success(let value): return value
        case .failure(let problem): throw .file(problem.message)
        }
    }

    /// The firmware's problem in diagram.json's terms: a sketch for another
    /// chip is fixed by the board part, not by tiltsim's --board.
    static func describe(_ error: AVRBoardError, board: WokwiBoard) -> String {
        guard case .builtForAnotherChip(let path, let chip, _) = error else { return error.description }
        let parts = WokwiBoard.allCases.filter { $0.arduino.chip == chip }.map(\.rawValue)
        let fix = parts.isEmpty
            ? "Wokwi has no board with it; build the sketch for the \(board.title)"
            : "make diagram.json's board a \(parts.joined(separator: " or ")), or build the sketch for the \(board.title)"
        return "\(path) is built for an \(chip.name), but diagram.json's board is a \(board.rawValue) (\(board.arduino.chip.name)): \(fix)"
    }
}

/// Keeps status lines off the sketch's half-printed lines, as wokwi-cli's
/// scenario log does: a status line after an unfinished serial line starts
/// on a new line, and the newline the sketch sends next is then dropped
/// (from stdout only; the serial log keeps every byte). A status line not
/// shown (-q) cuts nothing, so no newline is dropped for it.
struct StatusBetweenLines {
    private var atLineStart = true
    private var skipNewline = false

    mutating func serial(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var out = bytes[...]
        guard !out.isEmpty else { return out }
        if skipNewline {
            // The sketch's "\r\n" may come a byte at a time: a lone "\r" waits for its "\n".
            if out.first == 13 {
                out = out.dropFirst()
                if out.isEmpty { return out }
            }
            if out.first == 10 { out = out.dropFirst() }
        }
        skipNewline = false
        if let last = out.last { atLineStart = last == 10 }
        return out
    }

    /// The status line as printed, or nil when it is not `shown`.
    mutating func status(_ line: String, shown: Bool = true) -> String? {
        guard shown else { return nil }
        guard !atLineStart else { return line }
        atLineStart = true
        skipNewline = true
        return "\n" + line
    }
}

extension WokwiConfig {
    /// `parse` over a file's bytes.
    static func parse(_ data: Data, file: String) -> Result<WokwiConfig, WokwiProblem> {
        guard let text = String(data: data, encoding: .utf8) else { return .failure(WokwiProblem("\(file): not UTF-8 text")) }
        return parse(text, file: file)
    }
}

/// The terminal's keystrokes for `--interactive`: a thread reads stdin
/// (SerialIO's `ReaderThread`: an error ends the reading, where FileHandle's
/// `availableData` trapped, as on a folder, `< /`); the run takes what came.
final class StdinBytes: @unchecked Sendable {
    static let shared = StdinBytes()
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var reader: ReaderThread?

    private init() {
        reader = ReaderThread(input: 0, bytes: { [unowned self] read in
            lock.lock()
            bytes += read
            lock.unlock()
        }, ended: {})
    }

    func take() -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        let taken = bytes
        bytes.removeAll()
        return taken
    }
}
