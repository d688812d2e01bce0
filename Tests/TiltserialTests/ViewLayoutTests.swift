import Testing
import TiltCore
import TiltDisplay
import TiltPhysics
import TiltPipeline
@testable import TiltserialCommand
import SerialIO
import WireProtocol

/// The live view's pure parts: which layout a terminal size gets, and that the
/// lines it makes never wrap and always show the status.
@Suite struct ViewLayoutTests {
    @Test(arguments: [
        (80, 24, ViewMode.auto, CellDensity?.some(.braille), ViewLayout.Panel.compact, ViewLayout.Placement.beside),
        (100, 40, .auto, .quadrants, .full, .beside),
        (140, 45, .auto, .halfBlocks, .full, .below),
        (200, 60, .auto, .halfBlocks, .full, .beside),
        (140, 40, .auto, .halfBlocks, .compact, .below),
        (140, 40, .full, .quadrants, .full, .beside),
        (120, 30, .auto, .braille, .full, .beside),
        (200, 60, .compact, .braille, .compact, .beside),
        (79, 24, .auto, .braille, .compact, .below),
        (60, 20, .auto, nil, .compact, .below),
    ])
    func theTerminalSizeDecides(columns: Int, rows: Int, mode: ViewMode, board: CellDensity?, panel: ViewLayout.Panel, placement: ViewLayout.Placement) {
        let layout = ViewLayout.choose(columns: columns, rows: rows, mode: mode)
        #expect(layout.board == board && layout.panel == panel && layout.placement == placement, "\(columns)×\(rows) \(mode): \(layout)")
    }

    @Test func theBoardAndAPanelFitFrom80By24Up() {
        for mode in [ViewMode.auto, .full, .compact] {
            for columns in 80...220 {
                for rows in 24...70 {
                    let layout = ViewLayout.choose(columns: columns, rows: rows, mode: mode)
                    guard layout.board != nil, layout.panel != .none, layout.fits(columns: columns, rows: rows) else {
                        Issue.record("\(columns)×\(rows) \(mode): \(layout)")
                        return
                    }
                }
            }
        }
    }

    /// Every row the view takes shows something: at 140×45 the panel below
    /// the board kept a blank row (8 for sections of at most 7) where the
    /// port line would have fitted, and the port line was left out.
    @Test func noRowIsLeftBlankWhileTheInfoLineWaitsForOne() {
        let model = Self.model(big: false, port: "/dev/ttyUSB0")
        for mode in [ViewMode.auto, .full] {
            for columns in stride(from: 68, through: 250, by: 2) {
                for rows in 24...80 {
                    let layout = ViewLayout.choose(columns: columns, rows: rows, mode: mode)
                    let lines = ViewScreen.lines(model, layout).map(\.plainText)
                    let blank = lines.dropLast().firstIndex { $0.allSatisfy { $0 == " " } }
                    guard blank == nil else {
                        Issue.record("\(columns)×\(rows) \(mode): \(layout), blank row \(blank.map(String.init) ?? "none"), \(lines.count) lines")
                        return
                    }
                }
            }
        }
        let tall = ViewScreen.lines(model, ViewLayout.choose(columns: 140, rows: 45, mode: .auto)).map(\.plainText)
        #expect(tall.count == 45 && tall[1].hasPrefix("/dev/ttyUSB0 · "), "\(tall.prefix(2))")
        // The compact panel under the board takes the link's counts when a row is spare (two rows stayed empty at 140×43).
        let compact = ViewScreen.lines(model, ViewLayout.choose(columns: 140, rows: 43, mode: .auto)).map(\.plainText)
        #expect(compact.count == 42 && compact[compact.count - 3].hasPrefix("samples "), "\(compact.suffix(4))")
    }

    /// A snapshot with every number as wide as it gets.
    static func model(format: StreamFormat? = .binaryProtocol, sample: Bool = true, big: Bool = true,
                      port: String = "/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0-with-a-very-long-name-indeed-遠い") -> ViewModel {
        var counters = HostCounters()
        if big {
            counters.samples = 123_456_789_012
            counters.decoder.lostFrames = 98_765_432_109
            counters.decoder.crcErrors = 12_345_678_901
            counters.ticks = 4_115_226_300
            counters.fires = 1_234_567
        }
        let tick = Tick(time: BoardTime(micros: 1), index: 1, x: Fixed(raw: 65536), y: Fixed(raw: 32768), recipeOffsets: nil,
                        viewportX: 65535, viewportY: 65535, stretch: Fixed(raw: 100 << 16), ribbonX: 0, ribbonBottom: 0,
                        engaged: true, fired: false, wiggling: false)
        let raw = RawSample(accel: Axes3(x: -32768, y: -32768, z: -32768), temperature: -32768, gyro: Axes3(x: -32768, y: -32768, z: -32768))
        let snapshot = HostSnapshot(
            elapsedMicros: 5_000_000, counters: counters, format: format,
            hello: HelloFrame(protocolVersion: 1, firmwareMajor: 255, firmwareMinor: 255, firmwarePatch: 255, accelFullScaleSelect: 3,
                              gyroFullScaleSelect: 3, sampleRateHz: 65535, contentTileID: 1, status: 3),
            lastTick: tick, lastSample: sample ? TimedSample(timeMicros: 1, sequence: 0, raw: raw) : nil,
            converter: SampleConverter(accelRange: .g16, gyroRange: .dps2000), restDegrees: -89.95)
        var history = SensorHistory(capacity: 40)
        let reading = SensorReading(raw, converter: snapshot.converter, format: format)
        for i in 0..<60 { history.append(reading, atMicros: UInt64(i) * 200_000) }
        return ViewModel(
            port: port, snapshot: snapshot,
            rate: 123_456.7, reading: sample ? reading : nil, history: history,
            message: "warning: a message longer than any terminal is wide, \u{1B}[2J with an escape in it, " + String(repeating: "x", count: 300),
            messageIsWarning: true, keys: true, losingNow: true, erringNow: true, firedNow: true, screen: Screen())
    }

    @Test func noLineIsWiderThanTheTerminalAndTheStatusLeads() {
        // Every size on a coarse grid with the widest numbers; the other models at the sizes where layouts change.
        let edges = (columns: [79, 80, 81, 99, 100, 101, 129, 130, 131, 139, 140, 141], rows: [23, 24, 25, 39, 40, 41, 44, 45, 46])
        let grid = (columns: Array(stride(from: 20, through: 250, by: 9)) + edges.columns, rows: Array(stride(from: 5, through: 80, by: 7)) + edges.rows)
        let cases = [(Self.model(), grid), (Self.model(format: .i2cdevlib), edges), (Self.model(sample: false), edges), (Self.model(big: false), edges)]
        for (model, sizes) in cases {
            for mode in [ViewMode.auto, .full, .compact] {
                for columns in sizes.columns {
                    for rows in sizes.rows {
                        let layout = ViewLayout.choose(columns: columns, rows: rows, mode: mode)
                        let lines = ViewScreen.lines(model, layout)
                        let widest = lines.map(\.width).max() ?? 0
                        guard lines.count <= rows, widest <= columns,
                              lines.allSatisfy({ TerminalWidth.columns($0.plainText) == $0.width }),
                              lines[0].plainText.hasPrefix("rate ") || lines[0].plainText.hasPrefix("tiltserial  rate ") else {
                            Issue.record("\(columns)×\(rows) \(mode): \(lines.count) lines, widest \(widest): \(lines.map(\.plainText))")
                            return
                        }
                        if columns >= 80 && rows >= 24 {
                            let status = lines[0].plainText
                            let c = model.snapshot.counters
                            #expect(status.contains("lost \(c.lostFrames)") && status.contains("errors \(c.errors)") && status.contains("fires \(c.fires)"),
                                    "\(columns)×\(rows): \(status)")
                            #expect(lines.contains { $0.plainText.hasPrefix("└") }, "the whole board shows at \(columns)×\(rows)")
                        }
                    }
                }
            }
        }
    }

    @Test func theCompact80By24ViewShowsEverySensorValue() {
        let lines = ViewScreen.lines(Self.model(big: false), ViewLayout.choose(columns: 80, rows: 24, mode: .auto)).map(\.plainText)
        let text = lines.joined(separator: "\n")
        #expect(lines.count <= 24)
        for needle in ["-32768", "16.00 g", "pitch", "roll", "gx", "-2000.0°/s", "temp", "-59.8°C", "rest", "-90.0°", "|a|", "q quit"] {
            #expect(text.contains(needle), "\(needle) missing:\n\(text)")
        }
        // Text formats carry no temperature: none is made up.
        let i2c = ViewScreen.lines(Self.model(format: .i2cdevlib, big: false), ViewLayout.choose(columns: 80, rows: 24, mode: .auto))
        #expect(i2c.contains { $0.plainText.hasPrefix("│") && $0.plainText.hasSuffix("temp        —") })
    }

    /// `--view compact` on a wide terminal draws the 80-column view: each
    /// figure beside its label (a tester's 200 columns put "2" 130 columns
    /// from "ax").
    @Test(arguments: [(120, 24), (200, 60)])
    func theCompactViewIsThe80ColumnViewAtAnySize(columns: Int, rows: Int) {
        let wide = ViewLayout.choose(columns: columns, rows: rows, mode: .compact)
        #expect(wide.columns == 80)
        let at80 = ViewScreen.lines(Self.model(big: false), ViewLayout.choose(columns: 80, rows: rows, mode: .compact)).map(\.plainText)
        #expect(ViewScreen.lines(Self.model(big: false), wide).map(\.plainText) == at80)
        #expect(at80.contains { $0.hasSuffix(" ax     -32768") }, "\(at80.joined(separator: "\n"))")
    }

    /// The port line gives up whole parts, the format first once HELLO named
    /// the firmware: at 80 columns a cut at the edge dropped the ranges and
    /// left "… 100 Hz ·" (a tester's).
    @Test func thePortLineDropsWholeParts() {
        let m = Self.model(big: false, port: "/dev/pts/16")
        #expect(ViewScreen.info(m, columns: 120).plainText
                == "/dev/pts/16 · tiltserial binary protocol · firmware 255.255.255 · 65535 Hz · ±16 g  ±2000 °/s")
        #expect(ViewScreen.info(m, columns: 80).plainText == "/dev/pts/16 · firmware 255.255.255 · 65535 Hz · ±16 g  ±2000 °/s")
        #expect(ViewScreen.info(m, columns: 50).plainText == "/dev/pts/16 · firmware 255.255.255 · 65535 Hz")
        for columns in 20...130 {
            let line = ViewScreen.info(m, columns: columns).plainText
            #expect(line.count <= max(columns, 11) && !line.hasSuffix("·"), "\(columns): \(line)")
        }
    }

    @Test func colourMarksLossesErrorsAndFiresAndOnlyThem() {
        let line = ViewScreen.status(Self.model(), columns: 120)
        let coloured = line.rendered(colour: true)
        #expect(coloured.contains("\u{1B}[1;31mlost 98765432109\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[1;31merrors 12345678901\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[1;32mfires 1234567\u{1B}[0m"))
        #expect(!line.rendered(colour: false).contains("\u{1B}"))
        var calm = Self.model(big: false)
        calm.losingNow = false
        calm.erringNow = false
        calm.firedNow = false
        #expect(!ViewScreen.status(calm, columns: 120).rendered(colour: true).contains("\u{1B}[1;"))
    }

    @Test func noColorAndDumbTerminalsTurnColourOff() {
        #expect(TerminalInfo.colourAllowed(noColor: nil, term: "xterm-256color", isTerminal: true))
        #expect(TerminalInfo.colourAllowed(noColor: "", term: "screen", isTerminal: true), "an empty NO_COLOR does not count")
        #expect(!TerminalInfo.colourAllowed(noColor: "1", term: "xterm", isTerminal: true))
        #expect(!TerminalInfo.colourAllowed(noColor: "false", term: "xterm", isTerminal: true), "any value at all")
        #expect(!TerminalInfo.colourAllowed(noColor: nil, term: "dumb", isTerminal: true))
        #expect(!TerminalInfo.colourAllowed(noColor: nil, term: "xterm", isTerminal: false))
        // terminfo's monochrome kinds (xterm-mono was sent colour); the Linux console has colour.
        #expect(!TerminalInfo.colourAllowed(noColor: nil, term: "xterm-mono", isTerminal: true))
        #expect(!TerminalInfo.colourAllowed(noColor: nil, term: "vt100-m", isTerminal: true))
        #expect(TerminalInfo.colourAllowed(noColor: nil, term: "linux", isTerminal: true))
    }

    @Test func whetherToDraw() throws {
        #expect(try ViewDecision.make(mode: .auto, errIsTerminal: true, jsonToSameTerminal: false, dumbTerminal: false) == .view)
        #expect(try ViewDecision.make(mode: .auto, errIsTerminal: false, jsonToSameTerminal: false, dumbTerminal: false) == .logLines(note: nil))
        #expect(try ViewDecision.make(mode: .auto, errIsTerminal: true, jsonToSameTerminal: false, dumbTerminal: true) == .logLines(note: nil))
        guard case .logLines(let note?) = try ViewDecision.make(mode: .auto, errIsTerminal: true, jsonToSameTerminal: true, dumbTerminal: false) else {
            Issue.record("auto with --json on the same terminal draws")
            return
        }
        #expect(note.contains("--json > ticks.jsonl"))
        #expect(try ViewDecision.make(mode: .none, errIsTerminal: true, jsonToSameTerminal: false, dumbTerminal: false) == .logLines(note: nil))
        #expect(try ViewDecision.make(mode: .full, errIsTerminal: true, jsonToSameTerminal: false, dumbTerminal: true) == .view)
        #expect(throws: Failure.self) { try ViewDecision.make(mode: .full, errIsTerminal: true, jsonToSameTerminal: true, dumbTerminal: false) }
        #expect(try ViewDecision.make(mode: .compact, errIsTerminal: false, jsonToSameTerminal: false, dumbTerminal: false)
                == .logLines(note: "--view compact: stderr is not a terminal; writing log lines instead"))
    }

    @Test func keysSkipEscapeSequences() {
        var decoder = KeyDecoder()
        var keys: [WakeRequest] = []
        // c, right arrow (ESC [ C), q, F5 (ESC [ 1 5 ~), Alt-c (ESC c), SS3 up (ESC O A), Q, x, C
        let bytes: [UInt8] = [0x63, 0x1B, 0x5B, 0x43, 0x71, 0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x1B, 0x63, 0x1B, 0x4F, 0x41, 0x51, 0x78, 0x43]
        for byte in bytes { decoder.feed(byte) { keys.append($0) } }
        #expect(keys == [.recalibrate, .stop, .stop, .recalibrate], "c, q, Q, C: q stops the run")
    }

    /// Esc alone, then q in a later read: q stops (it was taken for Alt+q).
    /// Alt+q, ESC and q in one read, stays a key with Alt.
    @Test func anEscAloneDoesNotSwallowTheNextKey() {
        var decoder = KeyDecoder()
        var keys: [WakeRequest] = []
        decoder.feed(0x1B) { keys.append($0) }
        decoder.endOfRead()
        decoder.feed(UInt8(ascii: "q")) { keys.append($0) }
        #expect(keys == [.stop])
        keys = []
        for byte in [0x1B, UInt8(ascii: "q")] { decoder.feed(byte) { keys.append($0) } }
        decoder.endOfRead()
        #expect(keys.isEmpty, "Alt+q")
    }

    @Test func linesClipByTerminalColumns() {
        var line = StyledLine("ab", .bad)
        line.append("遠い", .plain)
        line.append("\u{1B}[31m")
        #expect(line.width == 2 + 4 + 5)
        #expect(line.plainText == "ab遠い?[31m", "control characters cannot reach the terminal")
        #expect(line.clipped(to: 5).plainText == "ab遠", "a wide character never straddles the edge")
        #expect(line.clipped(to: 5).width == 4)
        #expect(line.fitted(to: 5).width == 5)
        #expect(line.clipped(to: 1).rendered(colour: true) == "\u{1B}[1;31ma\u{1B}[0m")
        // The view's lines say where they were cut: a figure cut short never passes for a whole one.
        #expect(StyledLine("ay 14198").cut(to: 6).plainText == "ay 14…")
        #expect(StyledLine("ay 14198").cut(to: 8).plainText == "ay 14198")
        #expect(line.cut(to: 6).plainText == "ab遠…" && line.cut(to: 6).width == 5)
    }

    @Test func figuresForPeople() {
        #expect(Figures.fixed(-0.004, 2) == "0.00")
        #expect(Figures.fixed(-0.005, 2) == "-0.01")
        #expect(Figures.fixed(59.96, 1) == "60.0")
        #expect(Figures.fixed(12, 0) == "12")
        #expect(Figures.fixed(.nan, 1) == "?")
        #expect(Figures.fixed(1e300, 1) == "∞")
        #expect(Figures.rate(99.97) == "100" && Figures.rate(2.46) == "2.5" && Figures.rate(0) == "0")
    }

    @Test func readingsInTheSensorsUnitsAndTheBoardsAngles() {
        // Lying face-up: the MPU-6050 reads +1 g on z; pitch 0, roll 0.
        let flat = SensorReading(RawSample(accel: Axes3(x: 0, y: 0, z: 16384), temperature: 0, gyro: Axes3(x: 131, y: 0, z: -262)),
                                 converter: SampleConverter(), format: .binaryProtocol)
        #expect(flat.accel.z == 1 && abs(flat.pitch) < 1e-9 && abs(flat.roll) < 1e-9)
        #expect(abs(flat.gyro.x - 131 * 250 / 32768) < 1e-12 && flat.gyro.z < 0)
        #expect(abs(flat.temperature! - 36.53) < 1e-9)
        // Upright facing you (y up reads +1 g): pitch 90. Right side down (x down reads −1 g): roll +90.
        let upright = SensorReading(RawSample(accel: Axes3(x: 0, y: 16384, z: 0)), converter: SampleConverter(), format: .i2cdevlib)
        #expect(abs(upright.pitch - 90) < 1e-9 && upright.temperature == nil)
        let right = SensorReading(RawSample(accel: Axes3(x: -8192, y: 0, z: 0)), converter: SampleConverter(accelRange: .g4), format: nil)
        #expect(abs(right.roll - 90) < 1e-9 && right.accel.x == -1)
        // The mounting applies to the angles, not to the raw axes: the board's x is the sensor's y (up): left side down.
        let swapped = SensorReading(RawSample(accel: Axes3(x: 0, y: 16384, z: 0)),
                                    converter: SampleConverter(mapping: try! AxisMapping(parsing: "y,x,z")), format: nil)
        #expect(swapped.accel.y == 1 && abs(swapped.roll + 90) < 1e-9)
    }
}
