import Foundation
import TestSupport
import Testing
import TiltPipeline
import TiltVersion
@testable import TiltserialCommand
import TiltsimCommand
import ArgumentParser
import WireProtocol
import TiltCore

/// What makers expect of a command-line tool: `--version`, usage errors as
/// one line with a fix and a documented code, completions, `--help`.
@Suite struct ConventionsTests {
    @Test func versionComesFromTheOneConstant() throws {
        let r = runTiltserial(["--version"])
        #expect(r.code == 0)
        #expect(r.out == "tiltserial \(TiltVersion.number) (wire protocol 1)\n")
        #expect(r.err.isEmpty)
        #expect(runTiltserial(["monitor", "--version"]).out == r.out)

        let tiltsim = try runProduct("tiltsim", ["--version"])
        #expect(tiltsim.code == 0)
        #expect(tiltsim.out == "tiltsim \(TiltVersion.number) (wire protocol 1)\n")
    }

    @Test func aValueThatStartsWithAMinusGetsTheAttachedFormAsItsFix() {
        let r = runTiltserial(["/dev/null", "--rest-angle", "-30"])
        #expect(r.code == 21)
        #expect(r.err == "tiltserial: error: Missing value for '--rest-angle <DEG>'; "
                + "a value that starts with '-' must be attached with '=': --rest-angle=-30\n")
        // The mounting table's axes (docs/hardware.md) start with a minus too.
        let axes = runTiltserial(["replay", "x.csv", "--axes", "-y,x,z"])
        #expect(axes.code == 21)
        #expect(axes.err == "tiltserial: error: Missing value for '--axes <x,-y,z>'; "
                + "a value that starts with '-' must be attached with '=': --axes=-y,x,z\n")
        // An empty value attached with '=' is no value to ArgumentParser.
        let empty = runTiltserial(["replay", "x.csv", "--wiggle-starts-ms="])
        #expect(empty.err == "tiltserial: error: Missing value for '--wiggle-starts-ms <A,B,C>'; "
                + "an empty value is given as '': --wiggle-starts-ms ''\n")
        // ... and the attached form is read as the value.
        let attached = runTiltserial(["/dev/null", "--tick-ms=-5"])
        #expect(attached.err == "tiltserial: error: --tick-ms: '-5' is not valid; it must be a number between 1 and 1000 ms\n")
    }

    @Test(arguments: [
        (["run", "--tilt-harder"], "tiltserial: error: Unknown option '--tilt-harder'; see `tiltserial run --help` for the options\n"),
        (["replay"], "tiltserial: error: Missing expected argument '<file>'; see `tiltserial replay --help` for the options\n"),
        (["demo", "--speed", "fast"], "tiltserial: error: The value 'fast' is invalid for '--speed <N>'; see `tiltserial demo --help` for the options\n"),
        (["monitor", "--baud"], "tiltserial: error: Missing value for '--baud <N>'; see `tiltserial monitor --help` for the options\n"),
        (["list", "extra"], "tiltserial: error: Unexpected argument 'extra'; see `tiltserial list --help` for the options\n"),
        (["pins", "frob"], "tiltserial: error: pins frob: no such command; use pins list, pins clear or pins remove "
            + "(see `tiltserial pins --help`)\n"),
        (["pins", "list", "frob"], "tiltserial: error: Unexpected argument 'frob'; see `tiltserial pins list --help` for the options\n"),
        // Another command's option: not ArgumentParser's "did you mean '--axes'?".
        (["replay", "x.tiltrec", "--view", "none"], "tiltserial: error: --view is not an option of replay but a run's (tiltserial PORT) "
            + "and demo's: leave it out (see `tiltserial replay --help`)\n"),
        (["replay", "x.tiltrec", "--pins=p.json"], "tiltserial: error: --pins is not an option of replay but a run's (tiltserial PORT), "
            + "demo's and the pins commands': leave it out (see `tiltserial replay --help`)\n"),
        (["replay", "/nonexistent.tiltrec", "--no-reconnect"],
         "tiltserial: error: --reconnect (or --no-reconnect) sets up a serial link and replay reads a file, where it does nothing: leave it out\n"),
        (["setup", "/dev/null", "--reconnect", "false"],
         "tiltserial: error: --reconnect: setup ends when the board goes away, it never waits for it: leave it out\n"),
        (["run", "--view", "bogus"], "tiltserial: error: The value 'bogus' is invalid for '--view <auto|full|compact|none>'. "
            + "Please provide one of 'auto', 'full', 'compact' or 'none'; see `tiltserial run --help` for the options\n"),
    ])
    func usageErrorsAreOneLineWithAFixAndCode21(arguments: [String], line: String) {
        let r = runTiltserial(arguments)
        #expect(r.code == 21)
        #expect(r.err == line)
        #expect(r.out.isEmpty)
    }

    @Test func helpAndCompletionScriptsStayArgumentParsers() {
        let help = runTiltserial(["monitor", "--help"])
        #expect(help.code == 0)
        #expect(help.out.contains("USAGE: tiltserial monitor [<port>]"))
        // Neither the default command's port nor an optional subcommand looks required.
        #expect(runTiltserial(["--help"]).out.contains("USAGE: tiltserial [<port>] [<options>]\n       tiltserial <subcommand> [<options>]\n"))
        #expect(runTiltserial(["demo", "--help"]).out.contains("USAGE: tiltserial demo [<options>]\n"))
        let tiltsim = try? runProduct("tiltsim", ["--help"])
        #expect(tiltsim?.out.contains("USAGE: tiltsim [<options>]\n       tiltsim run [<options>] <sketch>\n") == true)
        for shell in ["bash", "zsh", "fish"] {
            let script = runTiltserial(["--generate-completion-script", shell])
            #expect(script.code == 0)
            #expect(script.out.contains("monitor") && script.out.contains("tick-ms"), "\(shell)")
        }
    }

    /// Options that take a file, and those that take one of a few words,
    /// complete at Tab: every such option's value was left to the shell's
    /// nothing (`complete -o filenames` without a file action), a tester's.
    @Test func fileAndChoiceOptionsComplete() throws {
        func offered(_ script: String, _ options: [String], tool: String) {
            for option in options {
                let cases = script.components(separatedBy: "'\(option)')\n").dropFirst()
                #expect(!cases.isEmpty, "\(tool) \(option) is in the script")
                for body in cases {
                    #expect(body.hasPrefix("        __\(tool)_add_completions"), "\(tool) \(option): \(body.prefix(80))")
                }
            }
        }
        let tiltserial = runTiltserial(["--generate-completion-script", "bash"]).out
        offered(tiltserial, ["--config", "--record", "--pins", "--render", "--png", "--firmware", "--port", "--physics", "--dtr", "--view", "--scenario"],
                tool: "tiltserial")
        #expect(tiltserial.contains("'--physics')\n        __tiltserial_add_completions -W 'recipe'$'\\n''smooth'$'\\n''default'"))
        let tiltsim = try runProduct("tiltsim", ["--generate-completion-script", "bash"]).out
        offered(tiltsim, ["--link", "--png", "--eeprom", "--firmware", "--script", "--csv", "--motion", "--display", "--sensor",
                          "--display-address", "--sensor-address", "--scenario", "--serial-log", "--usb-log", "--diagram-file",
                          "--screenshot-file", "--serial-log-file", "--elf"], tool: "tiltsim")
    }

    /// ArgumentParser keeps a help text's line breaks and wraps each line at
    /// 80 columns on its own (a pipe, CI, a default terminal): a line longer
    /// than that, followed by more text, leaves its last words alone on a line
    /// in the middle of a paragraph. A long line is a paragraph of its own.
    @Test func helpTextsWrapOnlyAtTheEndOfAParagraph() {
        func orphans(_ command: any ParsableCommand.Type, _ path: String) -> [String] {
            let c = command.configuration
            let lines = c.discussion.split(separator: "\n", omittingEmptySubsequences: false)
            let own = lines.indices.filter { lines[$0].count > 80 && $0 + 1 < lines.count && !lines[$0 + 1].isEmpty }
            return own.map { "\(path): \(lines[$0])" }
                + c.subcommands.flatMap { orphans($0, path + " " + ($0.configuration.commandName ?? "\($0)")) }
        }
        let found = orphans(Tiltserial.self, "tiltserial") + orphans(Tiltsim.self, "tiltsim")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func theHelloLineShowsTheHostVersionBesideTheFirmwares() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link])
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.send(Stream.hello() + Stream.samples(0..<10).wire)
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in
            err.contains("board: firmware 1.0.0 (host: tiltserial \(TiltVersion.number)), protocol 1,")
        }, "\(host.captured.err)")
        #expect(host.interrupt() == 0)
    }

    /// After HELLO the host asks the board which parts it found (DESCRIBE) and
    /// says the answer once: a second, identical PARTS (the next HELLO's) is not
    /// news.
    @Test func thePartsLineNamesTheSensorAndTheDisplayOnce() throws {
        let line = "board: sensor MPU-6500 family (WHO_AM_I 0x98) at 0x69, display SSD1306 128x64 at 0x3D"
        let err = try Self.partsTwice(PartsFrame(sensorAddress: 0x69, sensorWhoAmI: 0x98, displayAddress: 0x3D), saying: line)
        #expect(err.components(separatedBy: line).count - 1 == 1, "\(err)")
    }

    /// A run on a fake board that says HELLO, streams, answers DESCRIBE with
    /// `parts`, then says HELLO and `parts` again; stderr once `line` is in it.
    static func partsTwice(_ parts: PartsFrame, saying line: String) throws -> String {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link])
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.send(Stream.hello() + Stream.samples(0..<10).wire)
        #expect(try board.read { _ in board.describes == 1 }, "DESCRIBE after HELLO")
        try board.send(parts.encoded() + Stream.hello() + parts.encoded())
        #expect(try board.read { _ in board.describes == 2 }, "DESCRIBE after the second HELLO")
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains(line) }, "\(host.captured.err)")
        #expect(host.interrupt() == 0)
        return host.captured.err
    }

    /// A display run slower than its stored clock (PARTS bit 4) gets a warning
    /// naming the fix, once: at 100 kHz the bus's pull-ups and wires; a
    /// stored faster clock at 400 kHz the wires or the 8 MHz board. The same
    /// clock chosen (no fall-back) gets none.
    @Test(arguments: [(DisplayClock.kilohertz100, true, "runs at 100 kHz: it does not answer at 400 kHz (SDA and SCL need pull-ups, 4.7 kΩ to VCC, and short wires), so the glass draws fewer frames a second; check its pull-ups and wires"),
                      (.kilohertz400, true, "runs at 400 kHz, not the faster clock tiltserial setup stored: it did not answer that fast (shorten its wires) or the board runs at 8 MHz; tiltserial setup --display-clock 400k stores 400 kHz again"),
                      (.kilohertz100, false, nil)] as [(DisplayClock, Bool, String?)])
    func aDisplayThatFellBackToASlowerClockIsNamedWithItsFix(clock: DisplayClock, fellBack: Bool, warning: String?) throws {
        let flags = clock.rawValue << 2 | (fellBack ? PartsFrame.clockFellBackFlag : 0)
        let line = "display SSD1306 128x64 at 0x3C\(clock == .kilohertz400 ? "" : ", " + clock.label)"
        let err = try Self.partsTwice(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C, flags: flags), saying: line)
        let warnings = err.components(separatedBy: "\n").filter { $0.contains("warning") && $0.contains("display") }
        #expect(warnings == (warning.map { ["tiltserial: warning: the board's display " + $0] } ?? []), "\(err)")
    }

    /// The boot HELLO and the answer to HOST_HELLO are one line; a HELLO after
    /// ticks (the board reset mid-run) is a line of its own.
    @Test func theHelloLineIsSaidOncePerIntroduction() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--json"])
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.send(Stream.hello() + Stream.hello() + Stream.samples(0..<200).wire)
        #expect(host.captured.waitFor(timeout: .seconds(20)) { out, _ in out.contains("{\"t_us\":") }, "\(host.captured.out.suffix(300))")
        try board.send(Stream.hello() + Stream.samples(0..<50).wire)
        let hellos = "\"event\":\"hello\""
        #expect(host.captured.waitFor(timeout: .seconds(20)) { out, _ in out.components(separatedBy: hellos).count - 1 == 3 })
        #expect(host.interrupt() == 0)
        let lines = host.captured.err.components(separatedBy: "board: firmware 1.0.0").count - 1
        #expect(lines == 2, "\(host.captured.err)")
    }

    @Test func noValidFramesQuotesWhatCameFirst() throws {
        for (bytes, quote) in [(Array("\r\nTemperature: 21.5 C\r\nTemperature: 21.6 C\r\n".utf8), "(first line 'Temperature: 21.5 C')"),
                               ([0x81, 0xF3, 0x0A, 0x9C] + [UInt8](repeating: 0xEE, count: 20), "(first bytes 81 f3 0a 9c ee ee ee ee ee ee ee ee …)")] {
            let link = tempPath("board")
            let board = try PtyPeer(boardAt: link)
            defer { board.close() }
            let host = InProcessHost(["run", link, "--hello-timeout", "300"])
            #expect(try board.read { _ in board.hostHellos == 1 })
            try board.send(bytes)
            #expect(host.wait() == 15)
            #expect(host.captured.err.contains(quote), "\(host.captured.err)")
        }
    }

    @Test func theSummaryCountsInTheRightFormAndRoundsTheDuration() {
        var counters = HostCounters()
        counters.samples = 1
        counters.decoder.framesDecoded = 1
        counters.decoder.crcErrors = 1
        counters.ticks = 1
        counters.fires = 1
        #expect(HostSummary(durationMicros: 61_400_000, counters: counters).line == "1 min 1 s, 1 frame, 0 lost, 1 error, 1 tick, 1 fire")
        counters.decoder.framesDecoded = 12301
        counters.decoder.crcErrors = 0
        counters.ticks = 410
        counters.fires = 2
        #expect(HostSummary(durationMicros: 12_345_678, counters: counters).line == "12.3 s, 12301 frames, 0 lost, 0 errors, 410 ticks, 2 fires")
    }

    @Test func numbersForPeople() {
        #expect(ForPeople.count(0, "ribbon pull") == "0 ribbon pulls")
        #expect(ForPeople.count(1, "ribbon pull") == "1 ribbon pull")
        #expect(ForPeople.count(UInt64(2), "fire") == "2 fires")
        #expect(DurationText.span(micros: 0) == "0.0 s")
        #expect(DurationText.span(micros: 449_999) == "0.4 s")
        #expect(DurationText.span(micros: 59_949_999) == "59.9 s")
        #expect(DurationText.span(micros: 59_950_000) == "1 min 0 s")
        #expect(DurationText.span(micros: 3_725_000_000) == "1 h 2 min")
        #expect(DurationText.span(micros: .max) == "5124095576 h 2 min", "a damaged recording's last time: no overflow")
        #expect(ForPeople.decimal(2.996, places: 2) == "3.00")
        #expect(ForPeople.decimal(0.04, places: 1) == "0.0")
        #expect(ForPeople.decimal(-1.25, places: 1) == "-1.3")
        #expect(ForPeople.decimal(12, places: 0) == "12")
    }
}
