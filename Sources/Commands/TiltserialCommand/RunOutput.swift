import Logging
import SerialIO
import TiltDisplay
import TiltPhysics
import TiltPipeline
import TiltVersion
import WireProtocol
import TiltCore

/// Turns a run's events into output: JSON lines (stdout), `--on-pull`, and for
/// people either the live view (stderr is a terminal) or log lines. The
/// commands' `HostOutput`: run, demo and calibrate (both `observe`), replay.
final class RunOutput: HostOutput {
    let console: Console
    let logger: Logger
    let json: Bool
    let pull: Hook?
    let pin: Hook?
    /// Where dropped pins are saved (nil: kept in memory only).
    let pinStore: PinStore?
    let view: LiveView?
    /// The port (or replayed file) every line about the link names.
    let port: String
    /// `port` as a line shows it (control characters escaped, long names cut).
    var shownPort: String { PortName.shown(port) }
    /// Sees every event after the output has (the demo steers its emulated
    /// board with it; `calibrate` measures the samples).
    var observe: ((HostEvent) -> Void)?
    /// The events come from a file (`replay`): a loss is the recording's, which
    /// no cable or baud rate on this machine changes.
    var replaying = false

    /// `renderer` nil: no live view whatever `view` says (replay).
    init(console: Console, output: OutputOptions, port: String, renderer: ScreenRenderer?, view mode: ViewMode = .none,
         pinStore: PinStore? = nil, pins: [Pin] = []) throws(Failure) {
        self.pinStore = pinStore
        pinsAtLastSave = pins
        pinsWritten = pins
        self.console = console
        logger = console.logger()
        json = output.json
        pull = try output.onPull.map { text throws(Failure) in try Hook(option: "--on-pull", commandLine: text) }
        pin = try output.onPin.map { text throws(Failure) in try Hook(option: "--on-pin", commandLine: text) }
        self.port = port
        let decision = try ViewDecision.make(
            mode: renderer == nil ? .none : mode, errIsTerminal: console.errIsTerminal,
            jsonToSameTerminal: output.json && console.screen.outIsSameTerminal, dumbTerminal: console.screen.dumb)
        switch decision {
        case .view:
            view = renderer.map { LiveView(console: console, port: port, renderer: $0, mode: mode) }
        case .logLines(let note):
            view = nil
            if let note { logger.info("\(note)") }
        }
    }

    /// Log lines, or the view's message line when the view is up.
    func say(_ text: String, level: Logger.Level = .info) {
        if let view {
            view.message = level == .warning ? "warning: " + text : text
            view.messageIsWarning = level == .warning
        } else {
            logger.log(level: level, "\(text)")
        }
    }

    /// The tick line's buffer, reused for the whole run.
    var tickLine = JSONBytes()
    /// The board line last said, and whether ticks came since: a board that
    /// resets when the port opens says HELLO, then answers our HOST_HELLO with
    /// the same HELLO; one line says it. A HELLO after ticks (a reset mid-run)
    /// or a different one (CONFIGURE) is said again.
    private var saidHello: HelloFrame?
    private var saidParts: PartsFrame?
    /// The last pin's line and its tick's time: the view keeps it when the
    /// drawer closes on that tick (it shows one message).
    var pinSaid: (timeMicros: UInt64, text: String)?
    /// This run's pins at its last save (at first: those it loaded), and the
    /// list it wrote then: what another run saved meanwhile is told from them.
    var pinsAtLastSave: [Pin]
    var pinsWritten: [Pin]
    private var ticksSinceHello = false
    /// HELLO and PARTS lines said, and those held back from a board that keeps sending them.
    private var boardLines = BoardLineBudget()

    func event(_ event: HostEvent) {
        if json, case .tick(let tick, let wire) = event {
            tickLine.writeTickLine(tick, sequence: wire.frame.sequence)
            tickLine.bytes.withUnsafeBytes { console.writeOutBytes($0) }
        } else if json, let line = JSONLines.line(for: event) {
            console.writeOut(line)
        }
        switch event {
        case .formatDetected(let format):
            say("format: \(format.rawValue)")
        case .hello(let h):
            defer { saidHello = h; ticksSinceHello = false }
            if h == saidHello && !ticksSinceHello { break }
            let accel = h.accelRange.map { "±\($0.fullScale) g" } ?? "AFS_SEL \(h.accelFullScaleSelect)"
            let line = "board: firmware \(h.firmwareMajor).\(h.firmwareMinor).\(h.firmwarePatch) (host: tiltserial \(TiltVersion.number)), protocol \(h.protocolVersion), \(accel), \(h.sampleRateHz) Hz, "
                + "sensor \(h.sensorAnswered ? "ok" : "NOT answering"), display \(h.displayAnswered ? "ok" : "NOT answering")"
            guard boardLines.take(line) else { break }
            say(line)
            if !h.sensorAnswered { sayMissing(Self.sensorMissing) }
            if !h.displayAnswered { sayMissing(Self.displayMissing) }
        case .tileMismatch(let board, let host):
            say("the board's content tile \(HexText.prefixed(board)) differs from this tiltserial's \(HexText.prefixed(host)); "
                + "the live view will not match the OLED; reflash Hardware/ from this checkout", level: .warning)
        case .unsupportedRange(let a, let g):
            say("HELLO names unsupported full scales (AFS_SEL \(a), FS_SEL \(g)); keeping the previous ranges", level: .warning)
        case .implausibleRate(let hz):
            say("HELLO says the board samples at \(hz) Hz, outside \(SampleTracker.plausibleRatesHz.lowerBound)–\(SampleTracker.plausibleRatesHz.upperBound): "
                + "lost frames are counted from sequence numbers alone; is this our sketch from Hardware/?", level: .warning)
        case .versionMismatch:
            break  // the run stops with the error
        case .fired(let tick, let fires):
            say("ribbon fired (#\(fires)) at board time \(tick.timeMicros) µs")
        case .tick:
            ticksSinceHello = true
            if let held = boardLines.tick() { say(held, level: .warning) }
        case .sceneFrames, .frameSync, .view, .describeParts, .sample:
            break
        case .parts(let p):
            // Once per board: a HELLO's PARTS after a reset names the same parts.
            if p != saidParts, boardLines.take("board: " + p.summary) {
                say("board: " + p.summary)
                if p.displayAddress != 0, p.clockFellBack, let warning = Self.clockWarning(p.displayClock) { say(warning, level: .warning) }
                // The view shows one message: the fix for a missing part again, not the parts line over it.
                if view != nil, p.sensorAddress == 0 { sayMissing(Self.sensorMissing) }
                if view != nil, p.displayAddress == 0 { sayMissing(Self.displayMissing) }
            }
            saidParts = p
        case .drawer, .pulledOut, .pinned:
            sayDrawer(event)
        }
        observe?(event)
    }

    func refresh(_ snapshot: HostSnapshot) {
        view?.draw(snapshot)
    }

    /// Starts the user's hook with the event's values in its environment.
    func hook(_ request: HookRequest) {
        switch request {
        case .pull(let tick, let fires):
            let launch = pull?.fire(environment: [
                ("TILT_T_US", String(tick.timeMicros)),
                ("TILT_X", JSONLines.decimal(tick.x)),
                ("TILT_Y", JSONLines.decimal(tick.y)),
                ("TILT_PX", String(tick.viewportX)),
                ("TILT_PY", String(tick.viewportY)),
                ("TILT_RIBBON", JSONLines.decimal(tick.stretch)),
                ("TILT_FIRES", String(fires)),
                ("TILT_PORT", port),
            ])
            if case .failed(let message)? = launch {
                say(message, level: .warning)
                if json { console.writeOut(JSONLines.hookFailed(option: "--on-pull", message: message)) }
            }
        case .pin(let tick, let dropped):
            firePinHook(tick, dropped)
        }
    }

    /// A part that did not answer: the line for the log, and the one for the
    /// view's message line, which fits 80 columns with the pins whole.
    struct Missing {
        let line: String
        let short: String
    }

    /// HELLO said the sensor did not answer. The bus pins are the ones the
    /// board names on its NO SENSOR screen, for each board the sketch is built for.
    static let sensorMissing = Missing(
        line: "the board's sensor is not answering: check its four wires (VCC, GND, SDA, SCL; SDA/SCL are A4/A5 on an Uno or Nano, "
            + "20/21 on a Mega, 2/3 on a Leonardo, Micro or Pro Micro); samples start when it answers",
        short: "no sensor: check VCC, GND, SDA/SCL (A4/A5; Mega 20/21; Leonardo 2/3)")

    /// HELLO said the display did not answer.
    static let displayMissing = Missing(
        line: "the board's display is not answering: check its four wires (VCC, GND, SDA, SCL; SDA/SCL are A4/A5 on an Uno or Nano, "
            + "20/21 on a Mega, 2/3 on a Leonardo, Micro or Pro Micro) and its address (0x3C or 0x3D); the view goes on here, not on the glass",
        short: "no display: check VCC, GND, SDA/SCL (A4/A5; Mega 20/21; Leonardo 2/3)")

    /// The warning for a part that did not answer, in the view's words when the view is up.
    func sayMissing(_ missing: Missing) {
        say(view == nil ? missing.line : missing.short, level: .warning)
    }

    /// The warning for frames lost or damaged in the last second, naming only
    /// what happened ("0 frames lost and 1 damaged" read as a loss).
    static func trouble(lost: UInt64, errors: UInt64, totalLost: UInt64, totalErrors: UInt64, replaying: Bool = false) -> String {
        let what = [lost > 0 ? ForPeople.count(lost, "frame") + " lost" : nil,
                    errors > 0 ? (lost > 0 ? "\(errors)" : ForPeople.count(errors, "frame")) + " damaged" : nil]
        return "\(what.compactMap { $0 }.joined(separator: " and ")) in the last second (\(totalLost) lost, "
            + "\(ForPeople.count(totalErrors, "error")) in all); "
            + (replaying ? "as recorded: lost on the line when it was made, or the file is damaged; record again to have them"
                         : "check the cable, the baud rate and that nothing else reads the port")
    }

    /// The line for a display that did not answer at its stored clock (PARTS
    /// says which it runs at instead).
    static func clockWarning(_ clock: DisplayClock?) -> String? {
        switch clock {
        case .kilohertz100?:
            // The fact before the last "; ", the view's message line keeps what follows it whole.
            "the board's display runs at 100 kHz: it does not answer at 400 kHz (SDA and SCL need pull-ups, 4.7 kΩ to VCC, "
                + "and short wires), so the glass draws fewer frames a second; check its pull-ups and wires"
        case .kilohertz400?:
            "the board's display runs at 400 kHz, not the faster clock tiltserial setup stored: it did not answer that fast "
                + "(shorten its wires) or the board runs at 8 MHz; tiltserial setup --display-clock 400k stores 400 kHz again"
        default: nil
        }
    }

    /// The line for a port that vanished; a USB-serial bridge brltty took
    /// (the port comes and goes a second later) says so, with the fix.
    static func deviceGone(port: String, reconnecting: Bool, brltty: BrlttyConflict?) -> String {
        let what = brltty.map { "\(port): device gone: " + $0.message } ?? "\(port): device gone"
        return reconnecting ? what + "; waiting for it to come back (Ctrl-C to quit)…" : what
    }

    func news(_ news: HostNews) {
        switch news {
        case .waitingForBoard:
            // Log lines on a terminal (TERM=dumb, --view none): the view's keys are not there to say how to stop.
            let stop = view == nil && console.errIsTerminal ? " Ctrl-C stops the run." : ""
            say("\(shownPort): waiting for the board (it resets when the port opens)…" + stop)
        case .deviceGone(let reconnecting):
            let text = Self.deviceGone(port: shownPort, reconnecting: reconnecting, brltty: BrlttyConflict.find())
            if let view {
                view.message = text
                view.messageIsWarning = true
            } else if reconnecting {
                logger.warning("\(text)")
            }  // else the run ends with the error line that says it
        case .reopened(let verified):
            say(verified ? "\(shownPort): reconnected; the view keeps its place"
                : "\(shownPort): reopened; waiting for the board to speak before writing to it")
        case .boardConfirmed:
            say("\(shownPort): reconnected to the board; the view keeps its place")
        case .silentAfterReopen(let micros):
            say("\(shownPort): reopened, but nothing valid arrived for \(DurationText.seconds(micros: micros, places: 1, rounding: .down)); looking the name up again until the board answers (Ctrl-C to quit)", level: .warning)
        case .trouble(let lost, let errors, let totalLost, let totalErrors):
            say(Self.trouble(lost: lost, errors: errors, totalLost: totalLost, totalErrors: totalErrors, replaying: replaying), level: .warning)
        case .samplesStopped(let micros, let bytes, let frames):
            say(Self.samplesStopped(micros: micros, bytes: bytes, frames: frames), level: .warning)
        case .samplesResumed(let micros):
            say("samples again, after \(DurationText.seconds(micros: micros, places: 1, rounding: .down)) without")
        }
    }

    /// The line for a board that stopped streaming: silence points at the
    /// wiring or a hung sketch, valid frames of other types at the sensor,
    /// less than a frame at a board that stopped mid-frame (hung, or its
    /// power), more at the baud rate or the sketch.
    static func samplesStopped(micros: UInt64, bytes: UInt64, frames: UInt64 = 0) -> String {
        let span = DurationText.seconds(micros: micros, places: 1, rounding: .down)
        if frames > 0 {
            // Valid frames: the line and the baud rate are fine; the sketch stopped reading its sensor.
            return "no sample from the board for \(span), though it sent \(ForPeople.count(frames, "other frame")): "
                + "its sensor's reads stopped; check the sensor's wires, or reset the board"
        }
        guard bytes > 0 else {
            return "no sample from the board for \(span), not a byte: check the sensor's wires, or reset a hung board"
        }
        if bytes <= UInt64(WireFormat.maxEncodedCount + 1) {
            return "no sample from the board for \(span), only \(ForPeople.count(bytes, "byte")) since (less than a frame): "
                + "reset a hung board, or check its power and cable"
        }
        return "no sample from the board for \(span), only \(ForPeople.count(bytes, "byte")) of something else: check --baud and the board's sketch"
    }

    func recalibrated(_ outcome: Recalibration) {
        switch outcome {
        case .restPose(let degrees):
            say("rest pose set to the current pose: \(Figures.fixed(degrees, 1))° from face-up (for this run; tiltserial calibrate saves one)")
        case .fixedInRecipeMode:
            say("recipe mode keeps the recipe's rest pose (az = -0.5); --physics smooth lets you set it", level: .warning)
        case .noSampleYet:
            say("no sample yet: nothing to take the rest pose from", level: .warning)
        case .onItsSide:
            say("the board lies on its side (pitch undefined): rest pose unchanged; hold it as you look at it and press c again", level: .warning)
        }
    }

    func ftdiLatency(_ outcome: FTDILatency.Outcome) {
        switch outcome {
        case .lowered(let from): say("FTDI latency timer lowered from \(from) ms to 1 ms")
        case .needsPermission(let current, let command, let rule):
            say("FTDI latency timer is \(current) ms (adds lag); lower it with: \(command)   or for good, a udev rule: \(rule)", level: .warning)
        case .unreadable(let path): say("cannot read the FTDI latency timer at \(path)", level: .warning)
        case .alreadyLow(let ms): say("FTDI latency timer already \(ms) ms")
        case .notApplicable: break
        }
    }

    func otherOpeners(_ others: [DeviceOpener]) {
        say("\(shownPort) is also open in \(others.map(\.description).joined(separator: ", ")): it takes bytes meant for tiltserial (lost frames); close it", level: .warning)
    }

    func recordingFailed(_ message: String) {
        say(message, level: .warning)
    }

    func reopenRefused(_ error: SerialError) {
        say(error.message + "; trying again until it opens (Ctrl-C to quit)", level: .warning)
    }

    /// What the summary line adds about hooks (nothing when all went well).
    func hookSummary(_ shutdown: HookShutdown?) -> String {
        var parts: [String] = []
        for hook in [pull, pin].compactMap({ $0 }) {
            let failed = hook.counters.spawnFailed
            if failed > 0 { parts.append("\(failed) \(hook.option) hook\(failed == 1 ? "" : "s") failed to start") }
            let which = hook === pull ? "" : "\(hook.option) "
            if hook.counters.skipped > 0 { parts.append("\(hook.counters.skipped) \(which)skipped (\(hook.maxRunning) still running)") }
            let exits = hook.counters.failedExits
            if exits > 0 { parts.append("\(exits) \(hook.option) hook\(exits == 1 ? "" : "s") failed (a non-zero exit or a signal)") }
        }
        if let cut = shutdown?.cutShort, cut > 0 { parts.append("\(cut) cut short at exit") }
        return parts.isEmpty ? "" : ", " + parts.joined(separator: ", ")
    }

    /// Stops the view and ends the hooks (`Hook.finish`); says how many were cut short.
    @discardableResult
    func finish() -> HookShutdown? {
        if let held = boardLines.report() { say(held, level: .warning) }
        view?.stop()
        var total: HookShutdown?
        for hook in [pull, pin].compactMap({ $0 }) {
            let shutdown = hook.finish()
            if shutdown.cutShort > 0 {
                let n = shutdown.cutShort
                logger.warning("\(n) \(hook.option) hook\(n == 1 ? "" : "s") cut short at exit (still running after 0.5 s)")
            }
            var sum = total ?? HookShutdown()
            sum.endedInTime += shutdown.endedInTime
            sum.terminated += shutdown.terminated
            sum.killed += shutdown.killed
            sum.stillRunning += shutdown.stillRunning
            total = sum
        }
        return total
    }
}
