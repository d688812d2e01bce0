import ArgumentParser
import SerialIO
import WireProtocol

/// `tiltserial setup [PORT]`: which display the board drives, confirmed by a
/// person and stored in the board's EEPROM (or set outright with `--display`),
/// and the display's I2C clock (`--display-clock`, an opt-in to 800 kHz or 1 MHz).
/// The column offset of an SH1106 cannot be probed everywhere, so the board
/// shows a test pattern as each candidate kind and the person says whether
/// its border is whole; the confirmed kind is stored, and the board's waiting
/// screen says "SH1106 SET" from then on (docs/usage.md, "tiltserial setup").
struct Setup: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Choose the board's display with a test pattern and store the choice in the board.",
        usage: "tiltserial setup [<port>] [--display <KIND>] [<options>]",  // ArgumentParser's spelled every option out on one line past 80 columns
        discussion: """
            The board shows a border around its display as each kind in turn; answer y when the border is whole \
            on all four edges. A screen of noise, a picture shifted by two columns, or a stripe at the left or \
            right edge means another kind. The choice stays in the board's EEPROM across resets. --display sets it \
            without asking (auto: detect the display again). --display-clock 800k or 1m runs the display's \
            transfers faster (more frames a second; beyond the SSD1306 datasheet's 400 kHz, so try it: the \
            board keeps 400k if the display does not answer, and goes to 100k by itself if it does not answer at \
            400k). Exit code 28 when no choice was stored \
            (docs/usage.md).
            """)

    @OptionGroup var portOptions: PortOptions

    @Option(help: ArgumentHelp(
        "Store this display without asking: ssd1306 (128x64), sh1106 (the 1.3\" modules), ssd1306-128x32, or auto (forget the choice and detect).",
        valueName: "KIND"))
    var display: String?

    @Option(help: ArgumentHelp(
        "Store the display's I2C clock: 400k (the default), 800k or 1m (many modules take them with short wires: more frames a second), or 100k (a bus that garbles the picture at 400k). The sensor stays at 400 kHz.",
        valueName: "CLOCK"))
    var displayClock: String?

    @OptionGroup var link: LinkOptions

    /// What `--display` names: a kind to store, or auto.
    enum Choice: Equatable {
        case kind(UInt8)
        case auto

        /// The `--display` words, in the order help lists them.
        static let words: [(String, Choice)] = [
            ("ssd1306", .kind(0)), ("sh1106", .kind(1)), ("ssd1306-128x32", .kind(2)), ("auto", .auto),
        ]

        init(_ text: String) throws(Failure) {
            guard let found = Self.words.first(where: { $0.0 == text.lowercased() }) else {
                throw Failure(.badSettings, "--display \(text): not a display kind; give one of "
                    + Self.words.map(\.0).joined(separator: ", "))
            }
            self = found.1
        }
    }

    /// What `--display-clock` names.
    static func clock(_ text: String) throws(Failure) -> DisplayClock {
        let words = DisplayClock.allCases.map(\.name)
        guard let clock = DisplayClock.allCases.first(where: { $0.name == text.lowercased() }) else {
            throw Failure(.badSettings, "--display-clock \(text): not a display clock; give one of " + words.joined(separator: ", "))
        }
        return clock
    }

    /// A person's answer to "is the border whole?".
    enum Answer: Equatable {
        case yes, no, quit
        /// y/yes, n/no, q/quit (any case); nil for anything else (asked again).
        init?(_ line: String) {
            switch line.filter({ !$0.isWhitespace }).lowercased() {
            case "y", "yes": self = .yes
            case "n", "no": self = .no
            case "q", "quit": self = .quit
            default: return nil
            }
        }
    }

    func execute(_ context: CommandContext) throws(Failure) {
        if link.given.contains(where: { $0.0 == "reconnect" }) {
            throw Failure(.badSettings, "--reconnect: setup ends when the board goes away, it never waits for it: leave it out")
        }
        let choice = try display.map { text throws(Failure) in try Choice(text) }
        let clock = try displayClock.map { text throws(Failure) in try Self.clock(text) }
        guard choice != nil || clock != nil || context.inputIsTerminal else {
            throw Failure(.badSettings, "setup asks whether the test pattern's border is whole, but stdin is not a terminal; "
                + "give --display ssd1306, sh1106, ssd1306-128x32 or auto")
        }
        let file = context.paths.configFile
        let existing = try file.map { path throws(Failure) in try ConfigFile.bytesIfPresent(path: path) } ?? nil
        let settings = try Calibrate.settings(existing: existing, file: file ?? "", options: link.given)
        let logger = context.console.logger()
        let path = try portOptions.resolve { logger.info("\($0)") }
        if let note = try PortPreflight.check(path: path, baud: settings.baud) { logger.info("\(note)") }
        if context.handleSignals { StopSignals.install(context.stop) }
        defer { if context.handleSignals { StopSignals.restore() } }
        let board = try DisplaySetupLink(path: path, baud: settings.baud, dtr: settings.dtr, stop: context.stop)
        logger.info("\(PortName.shown(path)): waiting for the board (it resets when the port opens)…")
        let hello = try board.hello(timeout: .microseconds(Int64(max(settings.helloTimeoutMicros, 1))))
        // Nothing is stored for a display that is not there (the board would keep a kind for it all the same).
        guard hello.displayAnswered else { throw Self.noDisplay("its HELLO says display NOT answering") }
        var parts: PartsFrame?
        if let choice { parts = try Self.store(choice, on: board) }
        if let clock {
            do { parts = try Self.store(clock, on: board) } catch {
                // The kind went in first; a clock the display refuses does not take it back.
                guard let kept = parts else { throw error }
                throw Failure(error.code, error.message + "; the display kind is stored all the same: " + Self.stored(kept, kindAsked: true))
            }
        }
        if choice == nil && clock == nil { parts = try Self.ask(board: board, context: context) }
        if let parts {
            context.console.writeOut("\(Self.stored(parts, kindAsked: choice != nil || clock == nil, clockAsked: clock != nil))\n")
        }
    }

    static func noDisplay(_ why: String) -> Failure {
        Failure(.setupFailed, "the board found no display (\(why)); check its wiring (SDA, SCL, power), then run tiltserial setup again; nothing changed")
    }

    /// Stores `choice` and checks the board's answer says so.
    static func store(_ choice: Choice, on board: DisplaySetupLink) throws(Failure) -> PartsFrame {
        let frame = switch choice {
        case .kind(let kind): DisplayFrame(.store, kind: kind)
        case .auto: DisplayFrame(.clear)
        }
        let parts = try board.parts(after: frame)
        let kept = switch choice {
        case .kind(let kind): parts.kindStored && parts.displayKind == kind
        case .auto: !parts.kindStored
        }
        guard kept else {
            throw Failure(.setupFailed, "the board answered but did not keep the choice (it reports \(parts.summary)); "
                + "its EEPROM may be worn: run tiltserial setup again")
        }
        return parts
    }

    /// Stores the display's clock and checks the board runs the display at
    /// it; if not (the display did not answer that fast, or older firmware),
    /// puts 400 kHz back.
    static func store(_ clock: DisplayClock, on board: DisplaySetupLink) throws(Failure) -> PartsFrame {
        let parts = try board.parts(after: DisplayFrame(setClock: clock))
        guard parts.displayClock == clock else {
            let now = clock == .kilohertz400 ? parts : try board.parts(after: DisplayFrame(setClock: .kilohertz400))
            // Firmware that knows the setting says it fell back (PARTS flag bit 4); older firmware just answers as it stands.
            let why = switch clock {
            case _ where !parts.clockFellBack && clock != .kilohertz400: "the board's firmware predates the setting (flash the new one)"
            case .kilohertz100: "the board's firmware predates the setting (flash the new one)"
            case .kilohertz400: "the display did not answer that fast (\(Self.slowBusFix))"
            // Keeping 400k would not help: the display does not answer at 400 kHz either.
            case _ where parts.displayClock == .kilohertz100: "the display does not answer at 400 kHz either (\(Self.slowBusFix))"
            case .kilohertz800, .megahertz1:
                "the display did not answer that fast (shorten its wires, or keep 400k), or the board runs at 8 MHz "
                    + "(its I2C tops out at 500 kHz)"
            }
            throw Failure(.setupFailed, "the board runs its display at \(Self.label(parts)), not \(clock.label): \(why); "
                + "the display stays at \(Self.label(now))")
        }
        return parts
    }

    /// What to do about a display that does not answer at 400 kHz.
    static let slowBusFix = "check the pull-ups on SDA and SCL, 4.7 kΩ to VCC, and shorten the wires"

    private static func label(_ parts: PartsFrame) -> String { parts.displayClock?.label ?? "an unknown clock" }

    /// The test pattern as each kind in turn, the one in use first, until the
    /// person confirms one (stored) or refuses them all.
    static func ask(board: DisplaySetupLink, context: CommandContext) throws(Failure) -> PartsFrame {
        let now = try board.parts(after: nil)
        guard now.displayAddress != 0 else { throw noDisplay(now.summary) }
        let kinds = [now.displayKind] + [0, 1, 2].filter { $0 != now.displayKind }
        let say = { (text: String) in context.console.writeErr("tiltserial: \(text)\n") }
        for kind in kinds {
            let shown = try board.parts(after: DisplayFrame(.tryKind, kind: kind))
            // The text too: a 128x32 module shown the 128x64 pattern loses only its top edge, easy to miss, and squeezes the text.
            say("the board shows a test pattern as \(shown.displayName): is the border whole on all four edges and the text solid, "
                + "with no stripe of noise at the left or right? [y/n, q to stop]")
            var answer: Answer?
            while answer == nil {
                guard let line = context.readLine() else { answer = .quit; break }
                answer = Answer(line)
                if answer == nil { say("answer y, n or q") }
            }
            switch answer {
            case .yes: return try store(.kind(kind), on: board)
            case .quit:
                _ = try board.parts(after: DisplayFrame(.end), evenIfStopped: true)
                throw Failure(.setupFailed, "stopped before a display choice was stored; nothing changed")
            default: continue
            }
        }
        _ = try board.parts(after: DisplayFrame(.end))
        throw Failure(.setupFailed, "no display kind showed a whole border; nothing changed: check the module "
            + "(SSD1306, SH1106 or a 128x32 SSD1306) and its wiring, then run tiltserial setup again")
    }

    /// The last line: what the board drives now, whether it is stored, and
    /// the display's clock when it was set (`clockAsked`) or is not the
    /// default. A kind not asked about and not stored is only named.
    static func stored(_ parts: PartsFrame, kindAsked: Bool, clockAsked: Bool = false) -> String {
        let kind = parts.kindStored
            ? "stored in the board: display \(parts.displayName) (tiltserial setup --display auto goes back to detecting it)"
            : kindAsked ? "the board detects its display again: \(parts.displayName) found"
            : "display \(parts.displayName), detected"
        guard let clock = parts.displayClock, clockAsked || clock != .kilohertz400 else { return kind }
        // Slower than stored: the stored clock stays, the display does not answer at it.
        if parts.clockFellBack { return kind + "; its clock \(clock.label), slower than the one stored, which it does not answer at" }
        let back = clock == .kilohertz400 ? "" : " (tiltserial setup --display-clock 400k goes back)"
        return kind + "; its clock \(clock.label)" + (clockAsked ? ", stored" : "") + back
    }
}
