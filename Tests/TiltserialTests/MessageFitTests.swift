import Testing
@testable import TiltserialCommand

/// The view's message line at 80 columns keeps its advice: the start, "…",
/// and the ending after a ": " or "; ", where our lines say what to do.
@Suite struct MessageFitTests {
    @Test(arguments: [80, 60, 40])
    func aLongMessageKeepsItsStartAndItsAdvice(columns: Int) {
        let lines = [
            "warning: " + RunOutput.samplesStopped(micros: 2_000_000, bytes: 5285),
            "rest pose set to the current pose: 60.0° from face-up (for this run; tiltserial calibrate saves one)",
        ]
        for line in lines {
            let shown = MessageFit.fit(line, columns: columns)
            #expect(shown.count <= columns, "\(shown.count): \(shown)")
            #expect(shown.hasPrefix(String(line.prefix(8))), "\(shown)")
            #expect(shown.contains("…"), "\(shown)")
            let end = String(shown.split(separator: "… ").last!)
            #expect(line.hasSuffix(end) || line.hasSuffix(end + ")"), "the end whole: \(shown)")
        }
        let baud = MessageFit.fit(lines[0], columns: 80)
        #expect(baud.hasSuffix("check --baud and the board's sketch"), "\(baud)")
        let silent = MessageFit.fit("warning: " + RunOutput.samplesStopped(micros: 2_000_000, bytes: 0), columns: 80)
        #expect(silent.hasSuffix("check the sensor's wires, or reset a hung board"), "\(silent)")
        // No separator: the last three fifths, from a word's start.
        let plain = MessageFit.fit(String(repeating: "word ", count: 30), columns: 40)
        #expect(plain.count <= 40 && plain.hasSuffix("word ") && plain.contains("… word"), "\(plain)")
        #expect(MessageFit.fit(lines[1], columns: 80).hasSuffix("tiltserial calibrate saves one"))
        #expect(MessageFit.fit("drawer opened: tilt sideways to choose", columns: 80) == "drawer opened: tilt sideways to choose")
    }

    /// The slow-display warning keeps its fact at 80 columns (it kept only its
    /// advice, and "100 kHz" was nowhere in the view: a tester's).
    @Test func theSlowDisplayWarningKeepsItsFact() throws {
        let warning = "warning: " + (try #require(RunOutput.clockWarning(.kilohertz100)))
        let shown = MessageFit.fit(warning, columns: 80)
        #expect(shown.contains("runs at 100 kHz") && shown.hasSuffix("check its pull-ups and wires"), "\(shown)")
    }

    /// A cut never starts or ends inside brackets: the HELLO line cut at the
    /// colon in "(host: tiltserial 1.0.0)" read "board: firmw… tiltserial
    /// 1.0.0), protocol 1, …" (a tester's, after a reconnect at 80 columns).
    @Test func aCutKeepsBracketsWholeOrLeavesThemOut() {
        let hello = "board: firmware 1.0.0 (host: tiltserial 1.0.0), protocol 1, ±2 g, 100 Hz, sensor ok, display NOT answering"
        for columns in [80, 60, 40] {
            let shown = MessageFit.fit(hello, columns: columns)
            #expect(shown.count <= columns, "\(shown)")
            #expect(shown.filter { $0 == "(" }.count == shown.filter { $0 == ")" }.count, "\(shown)")
            #expect(shown.hasPrefix("board: firmware") && shown.hasSuffix("display NOT answering"), "\(shown)")
        }
        #expect(MessageFit.fit(hello, columns: 80) == "board: firmware 1.0.0… ±2 g, 100 Hz, sensor ok, display NOT answering")
        // A "; " inside brackets still ends the head; the ")" of a "(" cut away goes too.
        let rest = "rest pose set to the current pose: 60.0° from face-up (for this run; tiltserial calibrate saves one)"
        #expect(MessageFit.fit(rest, columns: 80) == "rest pose set to the current pose: 60.0° from… tiltserial calibrate saves one")
    }

    /// A line that starts with a port's path gives up the path's start first.
    @Test func aPortsPathGivesWayBeforeTheNews() {
        let gone = "/tmp/hosttest/simlink: device gone; waiting for it to come back (Ctrl-C to quit)…"
        #expect(gone.count == 81)
        #expect(MessageFit.fit(gone, columns: 80) == "…mp/hosttest/simlink: device gone; waiting for it to come back (Ctrl-C to quit)…")
        // A path too short to give way enough: the cut as before, the advice whole.
        let short = "/dev/ttyS0: " + String(repeating: "news ", count: 20) + "; fix it"
        #expect(MessageFit.fit(short, columns: 40).hasSuffix("… fix it"))
    }
}
