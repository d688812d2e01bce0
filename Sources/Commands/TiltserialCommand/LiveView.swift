import SerialIO
import TiltDisplay
import TiltPipeline
import WireProtocol

/// The terminal view on stderr, redrawn in place at the refresh rate (and at
/// once after a resize): the status, the board's display mirrored at the
/// largest density that fits, the sensor panel, the ribbon and the last
/// message. Lines never wrap: `ViewLayout` picks what fits the terminal's size
/// at each redraw. Alternate screen, hidden cursor; restored on exit.
final class LiveView {
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    static let leaveSequence = "\u{1B}[?25h\u{1B}[?1049l"

    let console: Console
    let port: String
    let mode: ViewMode
    var mirror: DisplayMirror
    var message = "waiting for the board (it resets when the port opens)…"
    var messageIsWarning = false
    private var history = SensorHistory()
    private var keys: ViewKeys?
    private var started = false
    private var signals = false
    private var lastSize: TerminalSize?
    // The rate, over windows of at least half a second.
    private var windowSamples: UInt64 = 0
    private var windowStart: UInt64 = 0
    private var rate = 0.0
    private var lastHistoryMicros: UInt64?
    // When losses, errors and fires were last seen to grow (run µs).
    private var seen = (lost: UInt64(0), errors: UInt64(0), fires: UInt64(0))
    private var grew = (lost: UInt64?.none, errors: UInt64?.none, fires: UInt64?.none)

    init(console: Console, port: String, renderer: ScreenRenderer, mode: ViewMode) {
        self.console = console
        self.port = port
        self.mode = mode
        mirror = DisplayMirror(renderer: renderer)
    }

    /// Takes the screen. With `wake` (the real process), also the keys (when
    /// stdin is a terminal) and the view's signals, which post to `wake`.
    func start(wake: WakeUpPipe?) {
        console.writeErr(Self.enterSequence)
        started = true
        guard let wake else { return }
        ViewSignals.install(wake: wake, screen: 2)
        signals = true
        if let input = console.screen.keyInput { keys = ViewKeys(input: input, wake: wake) }
    }

    /// Gives the terminal back: signals, key mode, the normal screen and the cursor.
    func stop() {
        guard started else { return }
        if signals { ViewSignals.restore() }
        keys?.stop()
        keys = nil
        console.writeErr(Self.leaveSequence)
        started = false
    }

    func draw(_ s: HostSnapshot) {
        update(s)
        let size = console.screen.size() ?? TerminalSize(columns: 80, rows: 24)
        let layout = ViewLayout.choose(columns: size.columns, rows: size.rows, mode: mode)
        let lines = ViewScreen.lines(model(s), layout)
        var out = size == lastSize ? "\u{1B}[H" : "\u{1B}[H\u{1B}[2J"
        lastSize = size
        let colour = console.screen.colour
        for (i, line) in lines.enumerated() {
            if i > 0 { out += "\r\n" }
            out += line.rendered(colour: colour)
            if line.width < size.columns { out += "\u{1B}[K" }
        }
        if lines.count < size.rows { out += "\r\n\u{1B}[J" }
        console.writeErr(out)
    }

    /// Rate, history and the moments losses, errors and fires grew.
    private func update(_ s: HostSnapshot) {
        let now = s.elapsedMicros, c = s.counters
        if now < windowStart || c.samples < windowSamples {
            windowStart = now
            windowSamples = c.samples
        } else if now - windowStart >= 500_000 {
            rate = Double(c.samples - windowSamples) * 1_000_000 / Double(now - windowStart)
            windowStart = now
            windowSamples = c.samples
        }
        if let sample = s.lastSample, lastHistoryMicros.map({ now >= $0 + 150_000 }) ?? true {
            history.append(SensorReading(sample.raw, converter: s.converter, format: s.format), atMicros: now)
            lastHistoryMicros = now
        }
        if c.lostFrames > seen.lost { grew.lost = now }
        if c.errors > seen.errors { grew.errors = now }
        if c.fires > seen.fires { grew.fires = now }
        seen = (c.lostFrames, c.errors, c.fires)
        mirror.show(s.scene)  // OFFSETS, the drawer and the pins, as sent to the board
    }

    private func model(_ s: HostSnapshot) -> ViewModel {
        let now = s.elapsedMicros
        func recent(_ at: UInt64?, _ window: UInt64) -> Bool { at.map { now < $0 + window } ?? false }
        return ViewModel(
            port: port, snapshot: s, rate: rate,
            reading: s.lastSample.map { SensorReading($0.raw, converter: s.converter, format: s.format) },
            history: history, message: message, messageIsWarning: messageIsWarning, keys: keys != nil,
            losingNow: recent(grew.lost, 2_000_000), erringNow: recent(grew.errors, 2_000_000),
            firedNow: recent(grew.fires, 1_500_000), screen: mirror.screen)
    }
}
