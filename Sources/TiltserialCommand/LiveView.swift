import TiltDisplay
import TiltPipeline
import WireProtocol

/// The terminal view on stderr: stats, offsets, the ribbon, the last message,
/// and the board's display mirrored in half blocks, redrawn in place
/// (alternate screen, cursor home) and restored on exit.
final class LiveView {
    let console: Console
    let port: String
    var mirror: DisplayMirror
    var message = "waiting for the board (it resets when the port opens)…"
    private var lastSamples: UInt64 = 0
    private var lastElapsed: UInt64 = 0
    private var rate = 0.0
    private var started = false

    init(console: Console, port: String, renderer: FrameRenderer) {
        self.console = console
        self.port = port
        mirror = DisplayMirror(renderer: renderer)
    }

    func start() {
        console.writeErr("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        started = true
    }

    /// Leaves the alternate screen and shows the cursor again.
    func stop() {
        guard started else { return }
        console.writeErr("\u{1B}[?25h\u{1B}[?1049l")
        started = false
    }

    func draw(_ s: HostSnapshot) {
        let dt = s.elapsedMicros - lastElapsed
        if dt > 0 { rate = Double(s.counters.samples - lastSamples) * 1_000_000 / Double(dt) }
        lastSamples = s.counters.samples
        lastElapsed = s.elapsedMicros
        var lines: [String] = []
        let format = s.format.map(\.rawValue) ?? "detecting…"
        lines.append("tiltserial  \(port)  \(format)  (Ctrl-C to quit)")
        let c = s.counters
        lines.append("rate \(Int(rate.rounded())) Hz  samples \(c.samples)  lost \(c.lostFrames)  CRC errors \(c.decoder.crcErrors)  other errors \(c.errors - c.decoder.crcErrors)  ticks \(c.ticks)  fires \(c.fires)")
        if let t = s.lastTick {
            let state = t.engaged ? "pulled" : (t.wiggling ? "wiggling" : "at rest")
            lines.append("offsets x \(JSONLines.decimal(t.x)) y \(JSONLines.decimal(t.y))  viewport \(t.viewportX),\(t.viewportY)  ribbon \(JSONLines.decimal(t.stretch)) pt, \(state)")
        } else {
            lines.append("offsets —")
        }
        lines.append(message)
        mirror.show(s.scene)  // OFFSETS, the drawer and the pins, as sent to the board
        lines.append("┌" + String(repeating: "─", count: Frame.width) + "┐")
        for line in HalfBlocks.lines(mirror.frame) { lines.append("│" + line + "│") }
        lines.append("└" + String(repeating: "─", count: Frame.width) + "┘")
        console.writeErr("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J")
    }
}
