import TiltDisplay
import TiltCore

/// Runs a sketch on an `AVRMachine` by a `RunPlan`, as fast as it goes,
/// deterministically: everything happens at simulated instants (batches of at
/// most 1 ms, cut short at the plan's own times), so the same sketch, plan and
/// motion give the same serial bytes, screens and outcome, run after run.
public final class SketchRun {
    /// The simulated board the sketch runs on.
    public let machine: AVRMachine
    /// The steps, timed screens and fail patterns the run follows.
    public let plan: RunPlan
    /// Simulated time reached.
    public private(set) var nowMicros: UInt64

    private let failRegexes: [(String, Regex<AnyRegexOutput>)]
    private var waitRegexes: [Int: Regex<AnyRegexOutput>] = [:]
    private var text = SerialText()
    private var stepIndex = 0
    private var stepStartedMicros: UInt64
    private var waitUntilMicros: UInt64?
    private var scannedLines = 0
    private var pendingInput: [UInt8] = []
    private var timed: [TimedScreen]
    private var timedIndex = 0
    private var failure: RunOutcome?
    private var partialChecked = false
    private var lastOutputMicros: UInt64 = 0
    /// The screens `saveScreen` steps saved, by name, for `expectSavedScreen`.
    private var savedScreens: [String: (screen: Screen, brightness: UInt8)] = [:]
    /// Output since the current `waitBytes` step began, after what the last one matched (only its last bytes once searched).
    private var byteWindow: [UInt8] = []
    /// A software I2C master on the TWI's pins while the TWI was on has been told about.
    private var toldOfBlockedBitBang = false
    private var toldOfSerialNotBegun = false
    /// Bytes for the sketch's serial input, asked before each batch (an
    /// interactive terminal's keystrokes; nil: none). They make the run depend on when they come.
    public var input: (() -> [UInt8])?
    /// The `passTexts` entry a line contained, once one did.
    public private(set) var passedBy: String?
    private var toldOfPass = false
    private var stopRequested = false

    /// An unfinished line counts as a line (a prompt) once the sketch has sent
    /// nothing more for this long; before that a pattern could match half a line.
    public static let quietMicros: UInt64 = 20_000

    /// Why a pattern is not a regular expression (nil if it is one).
    public static func patternProblem(_ pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "\(TiltCore.quoted(pattern)) is not a regular expression (\(shortened("\(error)", limit: 200))); escape special characters with a backslash"
        }
    }

    /// Every pattern must be valid (check with `patternProblem` first; an invalid one never matches).
    public init(machine: AVRMachine, plan: RunPlan) {
        self.machine = machine
        self.plan = plan
        nowMicros = machine.simulatedMicros
        stepStartedMicros = nowMicros
        failRegexes = plan.failPatterns.compactMap { pattern in (try? Regex(pattern)).map { (pattern, $0) } }
        for (index, step) in plan.steps.enumerated() {
            if case .waitSerial(let pattern, _) = step, let regex = try? Regex(pattern) { waitRegexes[index] = regex }
        }
        timed = plan.timedScreens.enumerated().sorted { ($0.element.atMicros, $0.offset) < ($1.element.atMicros, $1.offset) }.map(\.element)
    }

    /// Runs to the end and says how it ended; `sink` sees every event in order.
    public func run(_ sink: (RunEvent) -> Void) -> RunOutcome {
        while true {
            if let outcome = checkpoint(sink) {
                noteAddressesOneOff(sink)
                return outcome
            }
            advance(sink)
            if stopRequested { return .stopped }
            if let failure {
                noteAddressesOneOff(sink)
                return failure
            }
        }
    }

    /// Ends the run after the batch under way (from `sink`: a log or
    /// screenshot that cannot be written fails the run then, not at its timeout).
    public func stop() { stopRequested = true }

    /// A part the sketch called one address off and never at its own (0x3D
    /// for a display at 0x3C, 0x69 for a sensor at 0x68), said once at the
    /// end: Adafruit's 128×64 example talks to 0x3D, and its screen stayed
    /// dark without a word (an outside tester's).
    private func noteAddressesOneOff(_ sink: (RunEvent) -> Void) {
        let parts: [(address: UInt8?, name: String, option: String, diagram: String)] = [
            (machine.configuration.displayAddress, "the display", "--display-address", "the display's i2cAddress"),
            (machine.configuration.sensorAddress, "the MPU-6050", "--sensor-address", "AD0 high"),
        ]
        for part in parts {
            guard let own = part.address, own < 0x7F else { continue }  // 0x7F: no display in the diagram
            let other = own ^ 1
            guard machine.called(address: other) == .unanswered, machine.called(address: own) == .never else { continue }
            let (asked, at) = (HexText.prefixed(other), HexText.prefixed(own))
            sink(.note("the sketch called I2C address \(asked), where nothing answers, and never \(at), where \(part.name) is; "
                       + "wire it at \(asked) (\(part.option) \(asked); in a diagram, \(part.diagram))", atMicros: nowMicros))
        }
    }

    // MARK: The loop

    /// Everything due now; an outcome once the run is over.
    private func checkpoint(_ sink: (RunEvent) -> Void) -> RunOutcome? {
        while timedIndex < timed.count, timed[timedIndex].atMicros <= nowMicros {
            let screen = timed[timedIndex]
            timedIndex += 1
            switch screen.action {
            case .save(let name): save(name, sink)
            case .expect(let name, let screen, let brightness): if let missed = expect(name, screen, brightness, sink) { return missed }
            }
        }
        let screensDone = timedIndex == timed.count
        if let passedBy, !toldOfPass {
            toldOfPass = true
            sink(.note("serial line contains \"\(shortened(passedBy))\"", atMicros: nowMicros))
        }
        // A pass text seen passes, whatever steps are left; a screen still to
        // come is waited for first (wokwi-cli awaits its screenshot).
        if passedBy != nil && screensDone { return .passed }
        if passedBy == nil, let outcome = takeSteps(sink) { return outcome }
        let stepsDone = stepIndex == plan.steps.count
        // Steps pass when all are done; screens alone when taken, unless a pass text is still awaited.
        if stepsDone && screensDone && (!plan.steps.isEmpty || (!plan.timedScreens.isEmpty && plan.passTexts.isEmpty)) { return .passed }
        if nowMicros >= plan.timeoutMicros {
            if passedBy != nil { return .passed }
            return plan.expectsSomething ? .timedOut("the run's time (\(Self.seconds(plan.timeoutMicros))) ran out \(pending())") : .passed
        }
        if let halted = machine.haltReason {
            let reason = halted.split(separator: ";").first.map(String.init) ?? halted
            let at = machine.simulatedMicros  // the halt itself, inside the last batch
            guard plan.expectsSomething else {
                // A crash fails even a run that checks nothing: CI runs bare sketches as smoke tests.
                if machine.crashed { return .crashed("at \(Self.seconds(at)) \(reason)") }
                sink(.note("\(reason); nothing more will happen", atMicros: at))
                return .passed
            }
            return .missedExpectation("at \(Self.seconds(at)) \(reason), \(pending())")
        }
        return nil
    }

    /// Runs the machine to the next instant the plan cares about (at most 1 ms on).
    private func advance(_ sink: (RunEvent) -> Void) {
        var next = min(nowMicros + AVRMachine.batchMicros, plan.timeoutMicros)
        if timedIndex < timed.count { next = min(next, timed[timedIndex].atMicros) }
        if let waitUntilMicros { next = min(next, waitUntilMicros) }
        if !text.partial.isEmpty && !partialChecked && lastOutputMicros + Self.quietMicros > nowMicros {
            next = min(next, lastOutputMicros + Self.quietMicros)
        }
        if stepIndex < plan.steps.count, case .waitSerial(_, let timeout?) = plan.steps[stepIndex] {
            next = min(next, stepStartedMicros + timeout)
        }
        next = max(next, nowMicros + 1)
        if let input { pendingInput += input() }
        if !pendingInput.isEmpty {
            let taken = machine.sendSerial(pendingInput)
            pendingInput.removeFirst(taken)
        }
        machine.run(untilMicros: next)
        nowMicros = next
        if !toldOfBlockedBitBang, machine.bitBangedEdgesUnderTWI > 0 {
            toldOfBlockedBitBang = true
            sink(.note("the sketch toggles SDA/SCL as pins while the TWI is on (Wire.begin): the TWI owns them, as on the chip, "
                       + "so that software I2C reaches nothing; use one of the two (U8g2: a HW_I2C constructor beside Wire)", atMicros: nowMicros))
        }
        if !toldOfSerialNotBegun, let port = machine.serialWrittenWithTransmitterOff {
            toldOfSerialNotBegun = true
            sink(.note("the sketch writes to \(port) before \(port).begin (its transmitter off): the chip sends none of it, "
                       + "and once 64 bytes wait, \(port).write waits for ever; call \(port).begin first", atMicros: nowMicros))
        }
        for report in machine.takeUSBReports() { sink(.usbReport(report)) }
        let bytes = machine.takeSerialOutput()
        if !bytes.isEmpty {
            sink(.serial(bytes))
            lastOutputMicros = nowMicros
            partialChecked = false
            if stepIndex < plan.steps.count, case .waitBytes = plan.steps[stepIndex] { byteWindow += bytes }
            text.feed(bytes) { line in
                if failure == nil { checkFailure(line) }
                if failure == nil && passedBy == nil { passedBy = plan.passTexts.first { line.contains($0) } }
            }
        }
        if failure == nil, !partialChecked, let partial = quietPartial {
            checkFailure(partial)
            partialChecked = true
        }
    }

    /// The unfinished line, once the sketch has been quiet long enough.
    private var quietPartial: String? {
        nowMicros >= lastOutputMicros + Self.quietMicros ? text.partialText : nil
    }

    private func checkFailure(_ line: String) {
        if let text = plan.failTexts.first(where: { line.contains($0) }) {
            failure = .failureText("at \(Self.seconds(nowMicros)) the sketch printed '\(Self.quoted(line))', which contains \"\(shortened(text))\"")
            return
        }
        for (pattern, regex) in failRegexes where line.contains(regex) {
            failure = .failureText("at \(Self.seconds(nowMicros)) the sketch printed '\(Self.quoted(line))', which matches the failure pattern /\(shortened(pattern))/")
            return
        }
    }

    // MARK: Steps

    /// Takes every step that can complete now; an outcome if one ends the run.
    private func takeSteps(_ sink: (RunEvent) -> Void) -> RunOutcome? {
        while stepIndex < plan.steps.count {
            switch plan.steps[stepIndex] {
            case .waitSerial(let pattern, let timeout):
                if let line = match(stepIndex) {
                    sink(.note("serial matched /\(shortened(pattern))/: \(Self.quoted(line))", atMicros: nowMicros))
                } else if let timeout, nowMicros >= stepStartedMicros + timeout {
                    return .timedOut("/\(shortened(pattern))/ did not appear within \(Self.seconds(timeout)) (step \(stepIndex + 1)); "
                                     + "serial so far ends with '\(Self.quoted(lastLine(), keepingEnd: true))'")
                } else {
                    return nil
                }
            case .announce(let name):
                sink(.stepBegins(name, atMicros: nowMicros))
            case .setMotion(let motion):
                machine.motionSource = ShiftedMotion(motion, startingAt: nowMicros)
                sink(.note("motion set (\(Self.seconds(UInt64(motion.duration * 1e6))) long)", atMicros: nowMicros))
            case .sendSerial(let bytes):
                pendingInput += bytes
                sink(.note("sent \(bytes.count) bytes: '\(Self.quoted(bytes: bytes))'", atMicros: nowMicros))
            case .wait(let micros):
                let end = waitUntilMicros ?? stepStartedMicros + micros
                guard nowMicros >= end else {
                    waitUntilMicros = end
                    return nil
                }
                waitUntilMicros = nil
            case .saveScreen(let name):
                save(name, sink)
            case .expectScreen(let name, let screen, let brightness):
                if let missed = expect(name, screen, brightness, sink) { return missed }
            case .expectSavedScreen(let name, let matchBrightness):
                guard let saved = savedScreens[name] else {
                    return .missedExpectation("at \(Self.seconds(nowMicros)) no screen was saved as \(name) before it was compared")
                }
                if let missed = expect(name, saved.screen, matchBrightness ? saved.brightness : nil, sink) { return missed }
            case .waitBytes(let needle):
                guard Self.find(needle, in: &byteWindow) else { return nil }
                sink(.note("serial matched \"\(Self.quoted(String(decoding: needle, as: UTF8.self)))\"", atMicros: nowMicros))
            case .setSensor(let source, let label):
                machine.motionSource = source
                sink(.note("sensor set: \(label)", atMicros: nowMicros))
            case .expectPin(let pin, let high, let label):
                let level = machine.pinLevel(pin)
                // A pass there proves as little as a failure: said either way.
                let timer = machine.isTimerDriven(pin)
                    ? "; \(pin) is a timer's compare output (analogWrite's PWM, or a match that clears or sets it), whose level "
                        + "tiltsim does not model on the pin: expect a level the sketch sets with digitalWrite, or print the duty "
                        + "cycle and wait-serial for it" : ""
                guard level == high else {
                    return .missedExpectation("at \(Self.seconds(nowMicros)) \(label) (\(pin)) was \(level ? 1 : 0), expected \(high ? 1 : 0)\(timer)")
                }
                let passed = "\(label) (\(pin)) is \(high ? 1 : 0)"
                sink(timer.isEmpty ? .note(passed, atMicros: nowMicros) : .caveat(passed + timer, atMicros: nowMicros))
            case .expectWired(let high, let expected, let label, let wire):
                guard high == expected else {
                    return .missedExpectation("at \(Self.seconds(nowMicros)) \(label) (\(wire)) was \(high ? 1 : 0), expected \(expected ? 1 : 0)")
                }
                sink(.note("\(label) (\(wire)) is \(high ? 1 : 0)", atMicros: nowMicros))
            case .releasePin(let pin, let label):
                machine.releasePin(pin)
                sink(.note("\(label) lets go of \(pin)", atMicros: nowMicros))
            case .drivePin(let pin, let high, let label):
                machine.drivePin(pin, high: high)
                sink(.note("\(label) drives \(pin) \(high ? "high" : "low")", atMicros: nowMicros))
            case .setRangerDistance(let ranger, let centimetres, let label):
                machine.setRangerDistance(ranger, centimetres: centimetres)
                sink(.note("\(label): obstacle at \(centimetres) cm", atMicros: nowMicros))
            case .setHumiditySensor(let sensor, let celsius, let humidity, let label):
                machine.setHumiditySensor(sensor, celsius: celsius, humidity: humidity)
                let values = [celsius.map { "\($0) °C" }, humidity.map { "\($0) %" }].compactMap { $0 }
                sink(.note("\(label): \(values.joined(separator: ", "))", atMicros: nowMicros))
            case .setLoadCell(let cell, let kilograms, let label):
                machine.setLoadCell(cell, kilograms: kilograms)
                sink(.note("\(label): \(kilograms) kg on the cell", atMicros: nowMicros))
            case .setProbeTemperature(let bus, let probe, let celsius, let label):
                machine.setProbeTemperature(bus: bus, probe: probe, celsius: celsius)
                sink(.note("\(label): \(celsius) °C", atMicros: nowMicros))
            case .setAnalog(let channel, let millivolts, let label):
                machine.setAnalogInput(channel: channel, millivolts: millivolts)
                sink(.note("\(label): \(millivolts) mV on ADC\(channel)", atMicros: nowMicros))
            case .sensorWires(let connected):
                machine.sensorConnected = connected
                sink(.note(connected ? "sensor wired again (powered on from reset)" : "sensor wires off", atMicros: nowMicros))
            }
            // Wokwi pauses the simulation at a wait-serial's match, so the bytes
            // after it in this batch are still to come for the steps that follow
            // at this instant; a delay lets them go by.
            if case .wait = plan.steps[stepIndex] { byteWindow.removeAll(keepingCapacity: true) }
            stepIndex += 1
            stepStartedMicros = nowMicros
            scannedLines = text.droppedLines
        }
        return nil
    }

    /// The current wait step's pattern against the lines since the last match.
    private func match(_ index: Int) -> String? {
        guard let regex = waitRegexes[index] else { return nil }
        let first = max(0, scannedLines - text.droppedLines)
        for i in first..<max(first, text.backlog.count) where text.backlog[i].contains(regex) {
            let line = text.backlog[i]
            text.consumeBacklog(through: i)
            return line
        }
        scannedLines = text.droppedLines + text.backlog.count
        if let partial = quietPartial, partial.contains(regex) {
            text.consumePartial()
            return partial
        }
        return nil
    }

    /// Whether `needle` occurs in `window`: if so it keeps what came after the match, if not only the bytes a later match could start in.
    static func find(_ needle: [UInt8], in window: inout [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        if window.count >= needle.count {
            for start in 0...(window.count - needle.count) where window[start..<(start + needle.count)].elementsEqual(needle) {
                window.removeFirst(start + needle.count)  // what came after the match is the next step's
                return true
            }
        }
        window.removeFirst(max(0, window.count - (needle.count - 1)))
        return false
    }

    // MARK: Screens

    /// How far a lit pixel's grey may be from an expected screen's (a
    /// contrast step is 0.75 grey levels).
    public static let brightnessTolerance = 4

    private func save(_ name: String, _ sink: (RunEvent) -> Void) {
        let display = machine.display
        savedScreens[name] = (display.glass, display.brightness)
        sink(.screen(name: name, screen: display.glass, brightness: display.brightness, atMicros: nowMicros))
    }

    private func expect(_ name: String, _ expected: Screen, _ brightness: UInt8?, _ sink: (RunEvent) -> Void) -> RunOutcome? {
        let display = machine.display
        let actual = display.glass
        var differing = 0, lit = 0
        for y in 0..<Screen.height {
            for x in 0..<Screen.width {
                if actual[x, y] != expected[x, y] { differing += 1 }
                if actual[x, y] { lit += 1 }
            }
        }
        let greyOff = brightness.map { abs(Int($0) - Int(display.brightness)) > Self.brightnessTolerance } ?? false
        guard differing > 0 || (lit > 0 && greyOff) else {
            sink(.note("screen equals \(name)", atMicros: nowMicros))
            return nil
        }
        sink(.screenMismatch(name: name, actual: actual, brightness: display.brightness, atMicros: nowMicros))
        guard differing == 0, let brightness else {
            return .missedExpectation("at \(Self.seconds(nowMicros)) the screen differs from \(name) in \(differing) of 8192 pixels")
        }
        return .missedExpectation("at \(Self.seconds(nowMicros)) the screen's pixels equal \(name)'s but a lit one is grey "
                                  + "\(display.brightness) (contrast \(HexText.prefixed(display.registers.contrast))), \(name)'s \(brightness)")
    }

    // MARK: Wording

    private func pending() -> String {
        if stepIndex < plan.steps.count {
            let what: String = switch plan.steps[stepIndex] {
            case .waitSerial(let pattern, _): "waiting for /\(shortened(pattern))/; serial so far ends with '\(Self.quoted(lastLine(), keepingEnd: true))'"
            case .wait: "during a wait"
            case .waitBytes(let needle): "waiting for \"\(Self.quoted(String(decoding: needle, as: UTF8.self)))\"; serial so far ends with '\(Self.quoted(lastLine(), keepingEnd: true))'"
            default: "at a step"
            }
            return "\(what) (step \(stepIndex + 1) of \(plan.steps.count))"
        }
        if timedIndex < timed.count { return "before the screen at \(Self.seconds(timed[timedIndex].atMicros))" }
        if !plan.passTexts.isEmpty { return "waiting for " + plan.passTexts.map { "\"\(shortened($0))\"" }.joined(separator: " or ") }
        return "with nothing pending"
    }

    private func lastLine() -> String {
        text.partialText ?? text.backlog.last ?? ""
    }

    /// Simulated time for people: "1.234 s" (ms, rounded).
    public static func seconds(_ micros: UInt64) -> String { DurationText.seconds(micros: micros, places: 3) }

    /// A line as it can be shown in one line: control characters escaped, long ones cut.
    /// `keepingEnd`: a long line loses its start, not its end ("serial so
    /// far ends with" showed the first 120 characters of a long last line).
    /// Bytes as sent: ASCII as text (escaped as `quoted` does), the rest as \xNN.
    static func quoted(bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            if byte < 0x80 { text.unicodeScalars.append(Unicode.Scalar(byte)) } else { text += "\\x" + String(byte, radix: 16) }
        }
        return quoted(text)
    }

    static func quoted(_ line: String, keepingEnd: Bool = false) -> String {
        let scalars = line.unicodeScalars, cut = scalars.count > 120
        var out = ""
        for scalar in keepingEnd ? Array(scalars.suffix(120)) : Array(scalars.prefix(120)) {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += (scalar.value < 0x10 ? "\\x0" : "\\x") + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return !cut ? out : keepingEnd ? "…" + out : out + "…"
    }
}
