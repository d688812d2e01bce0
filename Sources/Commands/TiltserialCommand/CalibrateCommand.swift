import ArgumentParser
import SerialIO
import TiltCore
import TiltPipeline
import WireProtocol

/// `tiltserial calibrate [PORT]`: measures the rest pose and the sensor's
/// mounting, and saves them to the config file. A thin shell: `HostRunner`
/// keeps the link (greeting, hello timeout, reconnects, Ctrl-C) with a session
/// that runs no physics; the samples it reports go into the pure
/// `Calibration`, and the result is merged into the file (`ConfigMerge`) and
/// written atomically (`ConfigFile.replace`).
struct Calibrate: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Measure how you hold the board and how its sensor is mounted; save them for later runs.",
        usage: "tiltserial calibrate [<port>] [<options>]",  // ArgumentParser's spelled every option out on one line past 80 columns
        discussion: """
            Three steps, each done when the board keeps still for a second: hold it as you would to look at it; \
            tilt it to the right (right side down); level it and tilt it back (top edge away from you). The rest \
            pose (restAngleDegrees, restRollDegrees) and the mounting (axes) go into the config file, keeping its \
            other keys; run and replay read that file from then on. Exit code 23 when it cannot finish \
            (docs/usage.md).
            """)

    @OptionGroup var portOptions: PortOptions

    @Option(help: ArgumentHelp(
        "The config file to update; default $XDG_CONFIG_HOME/tiltserial/config.json, else ~/.config/tiltserial/config.json.",
        valueName: "FILE"), completion: .file(extensions: ["json"]))
    var config: String?

    @OptionGroup var link: LinkOptions

    func execute(_ context: CommandContext) throws(Failure) {
        guard let file = config ?? context.paths.configFile else {
            throw Failure(.badSettings, "nowhere to save the calibration: HOME and XDG_CONFIG_HOME are unset; give --config FILE")
        }
        // The file is checked before the board is touched: a file we could not rewrite stops here.
        let existing = try ConfigFile.bytesIfPresent(path: file)
        let settings = try Self.settings(existing: existing, file: file, options: link.given)
        let logger = context.console.logger()
        let path = try portOptions.resolve { logger.info("\($0)") }
        if let note = try PortPreflight.check(path: path, baud: settings.baud) { logger.info("\(note)") }
        let result = try Self.measure(path: path, settings: settings, context: context)
        let values: [(key: String, value: SettingValue)] = [
            ("axes", .text(result.axes.description)),
            ("restAngleDegrees", .number(result.restAngleDegrees)),
            ("restRollDegrees", .number(result.restRollDegrees)),
        ]
        let bytes: [UInt8]
        do { bytes = try ConfigMerge.merged(existing, path: file, setting: values) } catch {
            throw Failure(.badSettings, error.message)
        }
        try ConfigFile.replace(path: file, with: bytes)
        context.console.writeOut("saved to \(file): \(Self.describe(result))\n")
    }

    /// The link settings: the file's, then the options.
    static func settings(existing: [UInt8]?, file: String, options: [(String, String)]) throws(Failure) -> HostSettings {
        do {
            var resolver = SettingsResolver()
            if let existing { try resolver.addConfig(existing, path: file) }
            for (flag, text) in options { try resolver.addOption(flag: flag, text: text) }
            return try resolver.resolve()
        } catch {
            let fix = error.message.hasPrefix(file) ? "; fix it or move it away (calibrate keeps its other keys)" : ""
            throw Failure(.badSettings, error.message + fix)
        }
    }

    /// Runs the steps on the board at `path` until they finish, fail or Ctrl-C.
    static func measure(path: String, settings: HostSettings, context: CommandContext) throws(Failure) -> CalibrationSolver.Result {
        let output = try RunOutput(console: context.console, output: OutputOptions.none, port: path, renderer: nil)
        var sensor = SampleConverter()  // the sensor's own axes; HELLO's full scales once one came
        var calibration = Calibration()
        var ending: Result<CalibrationSolver.Result, Calibration.Failure>?
        var prompted = false
        var sensorMissing = false
        let say = { (text: String) in context.console.writeErr("tiltserial: \(text)\n") }
        let progress = { (step: Calibration.Progress) in
            switch step {
            case .started(let step): say(Self.prompt(step))
            case .captured: say("  got it")
            case .finished(let result): ending = .success(result)
            case .failed(let failure): ending = .failure(failure)
            }
            if ending != nil { context.stop.wake() }
        }
        output.observe = { event in
            guard ending == nil else { return }
            switch event {
            case .hello(let hello) where !hello.sensorAnswered:
                // No samples come until it answers, so no step would ever end (board time stands still).
                sensorMissing = true
                context.stop.wake()
            case .hello(let hello):
                _ = sensor.adoptRanges(of: hello)
                calibration.linkRestarted()
                if !prompted { calibration.start(progress) }  // after the line that names the board
                prompted = true
            case .sample(let timed): calibration.take(sensor.convert(timed.raw).accel, atMicros: timed.timeMicros, progress)
            case .formatDetected(let format):
                // The first prompt once the board speaks: a text sketch says no HELLO.
                if format != .binaryProtocol && !prompted { calibration.start(progress) }
                prompted = prompted || format != .binaryProtocol
            default: break
            }
        }
        var options = HostRunOptions(port: path, settings: settings)
        options.runsPhysics = false  // the samples, as received; nothing for the board to draw
        options.timing.refreshMicros = 3_600_000_000  // no view to redraw
        let runner = try HostRunner(options: options, output: output)
        if context.handleSignals { StopSignals.install(context.stop) }
        defer { if context.handleSignals { StopSignals.restore() } }
        _ = try runner.run(stop: context.stop)
        if sensorMissing {
            throw Failure(.calibrationFailed, "the board's sensor is not answering, so there is nothing to measure: "
                          + "check its four wires (VCC, GND, SDA, SCL), then run tiltserial calibrate again")
        }
        switch ending {
        case .success(let result): return result
        case .failure(let failure): throw Failure(.calibrationFailed, message(failure))
        case nil:
            let step = calibration.step?.rawValue ?? 1
            throw Failure(.calibrationFailed, "stopped at step \(step) of 3, before the calibration finished; nothing was saved")
        }
    }

    static func prompt(_ step: Calibration.Step) -> String {
        switch step {
        case .rest: "step 1 of 3: hold the board as you would to look at it, and keep it still…"
        case .right: "step 2 of 3: tilt it to the right (right side down, about 20 to 30°) and keep it still…"
        case .back: "step 3 of 3: level it again, then tilt it back (top edge away from you, about 20 to 30°) and keep it still…"
        }
    }

    static func message(_ failure: Calibration.Failure) -> String {
        let again = "; run tiltserial calibrate again"
        switch failure {
        case .neverStill(let step, let micros):
            return "step \(step.rawValue) of 3: the board never kept still for a second in \(micros / 1_000_000) s; "
                + "rest your elbows or lean it against something" + again
        case .didNotMove(let step, let micros):
            let how = step == .right ? "tilted right (right side down)" : "tilted back (top edge away from you)"
            return "step \(step.rawValue) of 3: the board kept still but was never \(how) by more than about 15° in \(micros / 1_000_000) s; "
                + "tilt it further" + again
        case .poses(.notSideways):
            return "step 2 of 3: that tilt was not to the side (it went forward or back); tilt the right side down" + again
        case .poses(.tiltedForward(let degrees)):
            return "step 3 of 3: the board turned \(Int(degrees.rounded()))° toward upright, not back toward face-up "
                + "(or step 2 tilted left); tilt right, then back" + again
        case .poses(.notBack):
            return "step 3 of 3: that tilt leaned sideways more than it tilted back; tilt the top edge away from you" + again
        }
    }

    static func describe(_ r: CalibrationSolver.Result) -> String {
        let n = { (v: Double) in SettingSpec.spec(key: "restAngleDegrees")!.optionText(.number(v)) }
        let roll = r.restRollDegrees, lean = n(abs(roll))
        // Which side is down, in words: "leaning 0° (right side down)" read oddly, and a negative lean as a minus.
        let side = lean == n(0) ? "level side to side" : "leaning \(lean)° \(roll > 0 ? "right" : "left") side down"
        return "rest pose \(n(r.restAngleDegrees))° from face-up, \(side); sensor axes \(r.axes)"
    }
}

extension OutputOptions {
    /// No JSON, no hook: what `calibrate` shows.
    static var none: OutputOptions { (try? OutputOptions.parse([])) ?? OutputOptions() }
}
