import TiltDisplay

/// What `tiltsim run` does with a sketch, as values: steps taken in order,
/// screens checked at fixed instants, and text that fails the run. Times are
/// simulated microseconds since power-on.
public struct RunPlan: Sendable {
    /// The run ends (timed out, if anything is still pending) at this simulated time.
    public var timeoutMicros: UInt64
    /// Regular expressions: a serial line matching any of them fails the run.
    public var failPatterns: [String]
    /// What to do, in order (wait for text, send bytes, change the motion, check a screen...).
    public var steps: [RunStep]
    /// Screens saved or compared at fixed instants, whatever the steps are doing.
    public var timedScreens: [TimedScreen]
    /// Plain text (no pattern): a completed serial line containing any of it
    /// fails the run (wokwi-cli's --fail-text; checked before `passTexts`).
    public var failTexts: [String] = []
    /// Plain text: a completed serial line containing any of it ends the run,
    /// passed, whatever steps are left, once the timed screens are taken
    /// (wokwi-cli's --expect-text, which awaits its screenshot). With no steps,
    /// timed screens alone do not pass a run that waits for one.
    public var passTexts: [String] = []

    /// A plan that times out at `timeoutMicros` simulated µs; everything else optional.
    public init(timeoutMicros: UInt64, failPatterns: [String] = [], steps: [RunStep] = [], timedScreens: [TimedScreen] = []) {
        self.timeoutMicros = timeoutMicros
        self.failPatterns = failPatterns
        self.steps = steps
        self.timedScreens = timedScreens
    }

    /// Whether the plan waits for anything (else it simply runs to its timeout).
    var expectsSomething: Bool { !steps.isEmpty || !timedScreens.isEmpty || !passTexts.isEmpty }
}

/// One step of a scenario.
public enum RunStep: Sendable {
    /// Waits until a serial line matches the regular expression (an unfinished
    /// last line counts once the sketch has been quiet for 20 ms: a prompt); with a timeout (simulated µs from the step's start)
    /// the run times out if it does not.
    case waitSerial(pattern: String, timeoutMicros: UInt64?)
    /// What the sensor feels from now on; the motion's time 0 is now.
    case setMotion(Motion)
    /// Bytes for the sketch's serial input, fed as its UART takes them.
    case sendSerial([UInt8])
    /// A named step begins (a Wokwi step's `name`): the run says so.
    case announce(String)
    /// Lets simulated time pass.
    case wait(micros: UInt64)
    /// The screen now, handed to the run's sink under this name.
    case saveScreen(name: String)
    /// The screen now must equal `screen` (named for messages), and a lit
    /// pixel be this grey (within `SketchRun.brightnessTolerance`; nil: any).
    case expectScreen(name: String, screen: Screen, brightness: UInt8? = nil)
    /// The screen now must equal the one an earlier `saveScreen` step of this
    /// name saved (the scenario compares with a file it writes itself, which
    /// is read when the step runs), its grey too when `matchBrightness`.
    case expectSavedScreen(name: String, matchBrightness: Bool)
    /// Waits until these bytes appear, in order and together, in the serial
    /// output sent after the step began (a Wokwi scenario's wait-serial).
    case waitBytes([UInt8])
    /// What the sensor feels from now on (a Wokwi set-control), named for the account.
    case setSensor(any MotionSource, label: String)
    /// The pin must read high (or low) now; `label` names it for messages ("led1:A").
    case expectPin(AVRPin, high: Bool, label: String)
    /// A part's pin wired to ground (`high` false) or the supply, not to a
    /// port pin: it must read `expected`; `label` names it, `wire` what it is on ("GND").
    case expectWired(high: Bool, expected: Bool, label: String, wire: String)
    /// Drives an input pin from now on (a pushbutton pressed).
    case drivePin(AVRPin, high: Bool, label: String)
    /// Lets go of a pin driven before (the last pushbutton on it released).
    case releasePin(AVRPin, label: String)
    /// Moves the obstacle of ultrasonic ranger `ranger` (`AVRMachine.addUltrasonicRanger`'s index).
    case setRangerDistance(ranger: Int, centimetres: Double, label: String)
    /// What DHT22 `sensor` (`AVRMachine.addHumiditySensor`'s index) reads from
    /// its next request on; nil leaves that value as it was.
    case setHumiditySensor(sensor: Int, celsius: Double?, humidity: Double?, label: String)
    /// Puts `kilograms` on load cell `cell` (`AVRMachine.addLoadCell`'s index) from now on.
    case setLoadCell(cell: Int, kilograms: Double, label: String)
    /// What DS18B20 `probe` on 1-Wire line `bus` (`AVRMachine.addOneWireBus`'s indices) reads from its next conversion on.
    case setProbeTemperature(bus: Int, probe: Int, celsius: Double, label: String)
    /// Puts `millivolts` on ADC input `channel` from now on (a potentiometer turned).
    case setAnalog(channel: Int, millivolts: UInt32, label: String)
    /// Takes the sensor module's wires off (false: nothing answers at its
    /// address, INT still) or puts them back (true: powered on from reset).
    case sensorWires(connected: Bool)
}

/// A screen to save or check at a fixed simulated time.
public struct TimedScreen: Sendable {
    /// Save the screen under a name, or compare it with an expected one.
    public enum Action: Sendable {
        /// Save the screen as `name` (a PNG when the command writes files).
        case save(name: String)
        /// `brightness`: a lit pixel's grey, as in `RunStep.expectScreen`.
        case expect(name: String, screen: Screen, brightness: UInt8? = nil)
    }

    /// When, simulated µs since power-on.
    public var atMicros: UInt64
    /// Save or compare.
    public var action: Action

    /// `action` at `atMicros` simulated µs since power-on.
    public init(atMicros: UInt64, action: Action) {
        self.atMicros = atMicros
        self.action = action
    }
}

/// How a run ended.
public enum RunOutcome: Sendable, Equatable {
    /// Every step done and every screen checked (or nothing expected and the time is up).
    case passed
    /// A screen differed, or the sketch halted with expectations pending.
    case missedExpectation(String)
    /// The sketch crashed (bad opcode, jump or stack) with nothing expected:
    /// not a pass, though nothing was asked of it.
    case crashed(String)
    /// A serial line matched a failure pattern.
    case failureText(String)
    /// The time ran out (the run's, or a step's) while waiting.
    case timedOut(String)
    /// The caller stopped it (`SketchRun.stop()`: an output it could not write).
    case stopped
}

/// What a run reports while it goes, in simulated-time order.
public enum RunEvent: Sendable {
    /// Bytes the sketch sent, as they came.
    case serial([UInt8])
    /// A screen to save (`saveScreen`, `TimedScreen.save`): what the glass
    /// shows, and the grey of a lit pixel (the contrast as brightness).
    case screen(name: String, screen: Screen, brightness: UInt8, atMicros: UInt64)
    /// A screen that differed from what was expected: what it showed instead.
    case screenMismatch(name: String, actual: Screen, brightness: UInt8, atMicros: UInt64)
    /// A one-line account of a step (matched text, screens, motions).
    case note(String, atMicros: UInt64)
    /// What a step that passed could not check as on a board (an expect-pin
    /// on a pin a timer drives): for stderr, even where notes are not shown.
    case caveat(String, atMicros: UInt64)
    /// A named step begins (`RunStep.announce`).
    case stepBegins(String, atMicros: UInt64)
    /// A USB HID report a native-USB board's sketch sent (`AVRMachine.takeUSBReports`).
    case usbReport(USBReport)
}
