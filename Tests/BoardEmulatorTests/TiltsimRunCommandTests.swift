import Foundation
import TestSupport
import Testing
import TiltDisplay
@testable import BoardEmulator

/// `tiltsim run` as CI runs it: a subprocess with fixture sketches, its exit
/// codes, scenario files and output files.
@Suite struct TiltsimRunCommandTests {
    let tiltsim = TiltsimCommandTests()

    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tiltsim-run-\(getpid())-\(UUID().uuidString.prefix(6))-\(name)").path
    }

    /// `--eeprom` keeps the EEPROM of a run in simulated time too, so CI can
    /// test what a sketch keeps across power cycles (it was parsed and
    /// dropped: every run printed "boot 0"); `tiltsim wokwi` keeps it as well.
    @Test func runAndWokwiKeepTheEEPROMFile() throws {
        let sketch = try SketchFixtures.eepromBoots.get()
        let file = temporary("eeprom.bin")
        defer { try? FileManager.default.removeItem(atPath: file) }
        for boots in 0...1 {
            let run = try tiltsim.run(["run", sketch.elf, "--eeprom", file, "--expect-serial", "^boot \(boots)$", "--timeout", "0.5"])
            #expect(run.code == 0, "\(run.err)")
        }
        let project = temporary("wokwi")
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: project) }
        try #"{"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno"}], "connections": []}"#
            .write(toFile: project + "/diagram.json", atomically: true, encoding: .utf8)
        let wokwi = try tiltsim.run(["wokwi", project, "--elf", sketch.elf, "--eeprom", file, "--expect-text", "boot 2", "--timeout", "500"])
        #expect(wokwi.code == 0, "\(wokwi.out)\(wokwi.err)")
        #expect(FileManager.default.contents(atPath: file)?.first == UInt8(2), "the third boot counted (boot 2)")
    }

    /// The pty board's options are refused by `run` and `wokwi`, which took
    /// and dropped them (`--firmware X` ran the sketch named, `--png` wrote
    /// nothing); `wokwi` also refuses wiring, motion and board, the diagram's.
    @Test func thePtyBoardsOptionsAreRefusedWhereTheyMeanNothing() throws {
        let sketch = try SketchFixtures.bootEcho.get()
        let run = try tiltsim.run(["run", sketch.elf, "--png", "/tmp/never.png", "--firmware", "/nonexistent.elf", "--timeout", "0.1"])
        #expect(run.code == 21)
        #expect(run.err == "tiltsim: --firmware, --png: for tiltsim's board on a pseudo-terminal, not tiltsim run (its own: "
                + "--screenshot, --timeout, --board, --serial-log, --eeprom; tiltsim run --help)\n", "\(run.err)")
        let wokwi = try tiltsim.run(["wokwi", "/nonexistent", "--sensor-address", "none", "--duration", "1"])
        #expect(wokwi.code != 0)
        #expect(wokwi.err.contains("--duration, the wiring options: not for tiltsim wokwi, whose board, parts and wiring come from diagram.json"),
                "\(wokwi.err)")
    }

    /// A watchdog reset reboots the sketch as a board's bootloader hands it
    /// over: MCUSR cleared and the watchdog off, so a start every 100 ms and
    /// 16 ms. simavr left the watchdog on at 16 ms (WDRF forces WDE), and the
    /// board reset 16 ms into every start from then on, never printing
    /// "rebooting" again; the sketch read MCUSR=1 at power-on. A pull-up set
    /// again after the reset reads high (simavr kept the pin's last level
    /// and filtered the pull-up out as no change: D3 read 0 from the second
    /// boot on).
    @Test func theRebootIdiomRebootsOnceEachTime() throws {
        let sketch = try SketchFixtures.wdtReboot.get()
        let boots = (0..<8).flatMap { ["--expect-serial", "^boot \($0) MCUSR=0 D3=1$", "--expect-serial", "^rebooting$"] }
        let run = try tiltsim.run(["run", sketch.elf, "--timeout", "1", "--quiet"] + boots)
        #expect(run.code == 0, "\(run.err)")
    }

    /// PRR's timer bits: Timer0 powered down stops millis() (a write to its
    /// clock register does not start it, and is lost as on the chip) and goes
    /// on as before when powered up; an
    /// idle sleep with it down wakes once, at the watchdog, not every
    /// millisecond as LowPower's idle(..., TIMER0_OFF, ...) did here.
    @Test func aTimerPoweredDownStopsUntilPoweredUp() throws {
        let sketch = try SketchFixtures.powerReduction.get()
        let run = try tiltsim.run(["run", sketch.elf, "--timeout", "1",
                                   "--expect-serial", "^millis off 0 kept 0 on (9[5-9]|10[0-2])$", "--expect-serial", "^idle wakes 1$"])
        #expect(run.code == 0, "\(run.out)\(run.err)")
    }

    /// An EEPROM write takes its 3.4 ms with EEPE set, so 100 EEPROM.write
    /// calls take about 340 ms as on a board (0.2 ms here before); updates
    /// that write nothing stay quick, and every byte reads back.
    @Test func anEEPROMWriteTakesItsTime() throws {
        let sketch = try SketchFixtures.eepromTime.get()
        let run = try tiltsim.run(["run", sketch.elf, "--timeout", "1", "--expect-serial", "^EEPE set 3400 us$",
                                   "--expect-serial", "^100 writes 3[34][0-9]{4} us, 0 wrong, 100 updates [0-9]{1,4} us$"])
        #expect(run.code == 0, "\(run.out)\(run.err)")
    }

    @Test func exitCodesSayHowTheRunWent() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let passed = try tiltsim.run(["run", echo.hex, "--expect-serial", "ready", "--expect-serial", "tick 500"])
        #expect(passed.code == 0, "\(passed.err)")
        #expect(passed.out.hasPrefix("boot_echo 1.0 ready\r\ntick 250\r\ntick 500\r\n"))
        #expect(passed.err.contains("tiltsim run: 0.502 s: serial matched /tick 500/: tick 500\n"))
        #expect(passed.err.hasSuffix("tiltsim run: passed (0.502 s simulated)\n"))

        let failure = try tiltsim.run(["run", echo.elf, "--fail-serial", "tick 2\\d\\d$", "--timeout", "2", "--quiet"])
        #expect(failure.code == 25, "\(failure.err)")
        #expect(failure.out.isEmpty)

        let timeout = try tiltsim.run(["run", echo.elf, "--expect-serial", "never printed", "--timeout", "0.5", "--quiet"])
        #expect(timeout.code == 26)
        #expect(timeout.err.contains("FAILED, timed out: the run's time (0.500 s) ran out waiting for /never printed/"))

        let missed = try tiltsim.run(["run", echo.elf, "--expect-screen", "0.2:" + Self.blankPNG(), "--quiet"])
        #expect(missed.code == 0, "boot_echo has no display: the screen stays dark \(missed.err)")

        let text = temporary("not-firmware.txt")
        try "hello\n".write(toFile: text, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: text) }
        let bad = try tiltsim.run(["run", text])
        #expect(bad.code == 27)
        #expect(bad.err == "tiltsim: \(text) is not an ELF file nor Intel HEX; pass the .elf or .hex that avr-gcc or the Arduino IDE built\n")
        let missing = try tiltsim.run(["run", "/nonexistent/sketch.hex"])
        #expect(missing.code == 27)
        #expect(missing.err.hasPrefix("tiltsim: cannot open firmware /nonexistent/sketch.hex: no such file"))

        let crashing = try BuiltFirmware.program("crashing").get()
        let crash = try tiltsim.run(["run", crashing, "--quiet"])
        #expect(crash.code == 24, "a crash fails a run that expects nothing: \(crash.err)")
        #expect(crash.err == "tiltsim run: FAILED: at 0.000 s the firmware crashed (bad opcode, jump or stack) (0.000 s simulated)\n")

        let usage = try tiltsim.run(["run", echo.hex, "--screenshot", "40:x.png"])
        #expect(usage.code == 21)
        #expect(usage.err == "tiltsim: --screenshot 40:x.png: after the run ends (30.000 s); raise --timeout\n")
    }

    /// A sketch built for another board's chip, ELF or HEX, is refused before
    /// it runs, naming the --board it needs (on the wrong core it crashed
    /// within a millisecond: a Mega's far calls, a Leonardo's USB vectors).
    @Test func aSketchBuiltForAnotherChipIsRefusedNamingItsBoard() throws {
        let mega = try BuiltFirmware.existing("examples/mega-tilt/build/tilt_bubble.elf", builtBy: "make fixtures (make -C examples)").get()
        let megaHex = String(mega.dropLast(3)) + "hex"
        let uno = try SketchFixtures.intPin.get(), leonardo = try SketchFixtures.intPinLeonardo.get()
        func refusal(_ arguments: [String]) throws -> String {
            let result = try tiltsim.run(["run"] + arguments + ["--quiet"])
            #expect(result.code == 27, "\(arguments): \(result.err)")
            return result.err
        }
        let forTheMega = "is built for an ATmega2560 (Arduino Mega 2560), not an ATmega328P: run it with --board mega\n"
        #expect(try refusal([mega]) == "tiltsim: \(mega) \(forTheMega)")
        #expect(try refusal([megaHex]) == "tiltsim: \(megaHex) \(forTheMega)")
        for file in [leonardo.elf, leonardo.hex] {
            #expect(try refusal([file]) == "tiltsim: \(file) is built for an ATmega32U4 (Arduino Leonardo, Arduino Micro, SparkFun Pro Micro 3.3 V), not an ATmega328P: run it with --board leonardo (or micro, promicro-8mhz)\n")
        }
        for (board, chip) in [("mega", "ATmega2560"), ("leonardo", "ATmega32U4"), ("micro", "ATmega32U4"), ("promicro-8mhz", "ATmega32U4")] {
            for file in [uno.elf, uno.hex] {
                #expect(try refusal(["--board", board, file]) == "tiltsim: \(file) is built for an ATmega328P (Arduino Uno, Arduino Nano, Arduino Pro Mini 3.3 V), not an \(chip): run it with --board uno (or nano, promini-8mhz)\n")
            }
        }
        let right = try tiltsim.run(["run", "--board", "mega", megaHex, "--quiet", "--expect-serial", "MPU-6050 found", "--timeout", "1"])
        #expect(right.code == 0, "\(right.err)")
        let sibling = try tiltsim.run(["run", "--board", "micro", leonardo.hex, "--quiet", "--timeout", "0.1"])
        #expect(sibling.code == 0, "a Leonardo's sketch runs on the Micro's chip: \(sibling.err)")
    }

    /// --usb-log: a line a HID report; without it, one hint at the first report.
    @Test func aLeonardosUSBReportsGoToTheUSBLog() throws {
        let mouse = try SketchFixtures.hidMouse.get()
        let path = temporary("usb.log")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let logged = try tiltsim.run(["run", "--board", "leonardo", mouse.hex, "--quiet", "--timeout", "0.2", "--usb-log", path])
        #expect(logged.code == 0, "\(logged.err)")
        #expect(!logged.err.contains("--usb-log FILE keeps them"))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 15)
        // The sketch's burst first (x = 0…9), a line a report, then its reports every 10 ms.
        #expect(lines.first.map { $0.hasSuffix(" ep4 01 00 00 00 00") && $0.hasPrefix("0.0") } == true, "\(lines.first ?? "")")
        #expect(lines.dropFirst().first.map { $0.hasSuffix(" ep4 01 00 01 00 00") } == true)
        #expect(lines.dropFirst(10).first.map { $0.hasSuffix(" ep4 01 00 00 fe 00") } == true, "\(lines.prefix(12))")

        let hinted = try tiltsim.run(["run", "--board", "leonardo", mouse.hex, "--quiet", "--timeout", "0.2"])
        #expect(hinted.code == 0)
        #expect(hinted.err.components(separatedBy: "the sketch sends USB reports (endpoint 4); --usb-log FILE keeps them").count == 2, "once: \(hinted.err)")
    }

    @Test func twoProcessesWriteTheSameScreensAndSerialLogAndAScreenMismatchExitsOne() throws {
        let bar = try SketchFixtures.tiltBar.get()
        var outputs: [(png: Data, log: Data)] = []
        for run in 0..<2 {
            let png = temporary("bar\(run).png"), log = temporary("bar\(run).log")
            defer { try? FileManager.default.removeItem(atPath: png); try? FileManager.default.removeItem(atPath: log) }
            let result = try tiltsim.run(["run", bar.hex, "--motion", "tilt-right", "--timeout", "1.5", "--quiet",
                                          "--screenshot", "1.2:\(png)", "--serial-log", log])
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("1.200 s: saved the screen to \(png)"))
            outputs.append((try Data(contentsOf: URL(fileURLWithPath: png)), try Data(contentsOf: URL(fileURLWithPath: log))))
        }
        #expect(outputs[0].png == outputs[1].png)
        #expect(outputs[0].log == outputs[1].log)
        #expect(String(decoding: outputs[0].log, as: UTF8.self).hasPrefix("tilt_bar ready\r\nax="))

        // The same screen expected at the same time passes; at rest the bar differs.
        let reference = temporary("reference.png")
        try outputs[0].png.write(to: URL(fileURLWithPath: reference))
        defer {
            try? FileManager.default.removeItem(atPath: reference)
            try? FileManager.default.removeItem(atPath: String(reference.dropLast(4)) + ".actual.png")
        }
        let same = try tiltsim.run(["run", bar.elf, "--motion", "tilt-right", "--timeout", "1.5", "--quiet", "--expect-screen", "1.2:\(reference)"])
        #expect(same.code == 0, "\(same.err)")
        let still = try tiltsim.run(["run", bar.elf, "--motion", "rest", "--timeout", "1.5", "--quiet", "--expect-screen", "1.2:\(reference)"])
        #expect(still.code == 24)
        #expect(still.err.contains("the screen differs from \(reference) in"))
        #expect(FileManager.default.fileExists(atPath: String(reference.dropLast(4)) + ".actual.png"))
    }

    @Test func screenshotsShowTheContrastAndExpectScreenComparesIt() throws {
        let bar = try SketchFixtures.tiltBar.get()
        let png = temporary("contrast.png"), white = temporary("white.png")
        defer {
            for path in [png, white, String(white.dropLast(4)) + ".actual.png"] { try? FileManager.default.removeItem(atPath: path) }
        }
        let shot = try tiltsim.run(["run", bar.elf, "--motion", "tilt-right", "--timeout", "1.5", "--quiet", "--screenshot", "1.2:\(png)"])
        #expect(shot.code == 0, "\(shot.err)")
        let image = try #require(StoredPNG.grey(Array(try Data(contentsOf: URL(fileURLWithPath: png)))))
        #expect(image.width == 512 && image.height == 256)
        // tilt_bar never sets the contrast: the reset value 0x7F, grey 64 + 127 · 191 / 255.
        #expect(Set(image.pixels) == [0, 159], "black and the contrast's grey")
        #expect(SSD1306Glass.brightness(contrast: 0x7F) == 159)

        // The same pixels in white: equal pixels, another brightness.
        let brighter = PNGEncoder.encodeGray(width: image.width, height: image.height, pixels: image.pixels.map { $0 == 0 ? 0 : 255 })!
        try Data(brighter).write(to: URL(fileURLWithPath: white))
        let differs = try tiltsim.run(["run", bar.elf, "--motion", "tilt-right", "--timeout", "1.5", "--quiet", "--expect-screen", "1.2:\(white)"])
        #expect(differs.code == 24)
        #expect(differs.err.contains("at 1.200 s the screen's pixels equal \(white)'s but a lit one is grey 159 (contrast 0x7F), \(white)'s 255"))
        let actual = try #require(StoredPNG.grey(Array(try Data(contentsOf: URL(fileURLWithPath: String(white.dropLast(4)) + ".actual.png")))))
        #expect(actual.pixels == image.pixels, "what it showed, at its brightness")
        let same = try tiltsim.run(["run", bar.elf, "--motion", "tilt-right", "--timeout", "1.5", "--quiet", "--expect-screen", "1.2:\(png)"])
        #expect(same.code == 0, "\(same.err)")
    }

    @Test(arguments: ["yaml", "json"])
    func aScenarioFileDrivesTheRun(format: String) throws {
        let echo = try SketchFixtures.bootEcho.get()
        let scenario = temporary("scenario.\(format)")
        let yaml = """
            # boot_echo, checked step by step
            timeout: 3
            fail-serial: FATAL
            steps:
              - wait-serial: "ready$"
                timeout: 0.1
              - send-serial: "ping\\n"
              - wait-serial: "^echo: ping$"
              - wait: 0.5
              - pose: [30, 10]
              - wait-serial: "tick \\\\d+"
            """
        let json = """
            {"timeout": 3, "fail-serial": ["FATAL"], "steps": [
              {"wait-serial": "ready$", "timeout": 0.1}, {"send-serial": "ping\\n"},
              {"wait-serial": "^echo: ping$"}, {"wait": 0.5}, {"pose": {"back": 30, "right": 10}},
              {"wait-serial": "tick \\\\d+"}]}
            """
        try (format == "yaml" ? yaml : json).write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let result = try tiltsim.run(["run", echo.elf, "--scenario", scenario, "--quiet"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.contains("serial matched /^echo: ping$/: echo: ping"))
        #expect(result.err.contains("serial matched /tick \\d+/"))

        let broken = temporary("broken.\(format)")
        try (format == "yaml" ? "steps:\n  - wiat-serial: ready\n" : #"{"steps": [{"wiat-serial": "ready"}]}"#)
            .write(toFile: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let bad = try tiltsim.run(["run", echo.elf, "--scenario", broken])
        #expect(bad.code == 18)
        #expect(bad.err.hasPrefix("tiltsim: \(broken): step 1: unknown key 'wiat-serial'; use one of wait-serial,"))
        #expect(bad.err.split(separator: "\n").count == 1)
    }

    /// `send-serial` as byte values reaches the sketch byte for byte (a binary
    /// protocol): 0xFF as 0xFF, where text would send its UTF-8 (C3 BF).
    @Test func aScenarioSendsRawBytes() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let scenario = temporary("bytes.yaml"), log = temporary("bytes.log")
        try "steps:\n  - wait-serial: \"ready$\"\n  - send-serial: [0x41, 66, 0xFF, 0x0A]\n  - wait-serial: \"^echo: AB\"\n"
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { for f in [scenario, log] { try? FileManager.default.removeItem(atPath: f) } }
        let result = try tiltsim.run(["run", echo.elf, "--scenario", scenario, "--quiet", "--timeout", "3", "--serial-log", log])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.contains("sent 4 bytes: 'AB\\xff\\n'"), "\(result.err)")
        let logged = try [UInt8](Data(contentsOf: URL(fileURLWithPath: log)))
        #expect(logged.firstRange(of: Array("echo: AB".utf8) + [0xFF, 0x0D, 0x0A]) != nil)

        for bad in ["[256]", "[]", "[\"A\"]", "[true]", "{a: 1}"] {
            try "steps:\n  - send-serial: \(bad)\n".write(toFile: scenario, atomically: true, encoding: .utf8)
            let refused = try tiltsim.run(["run", echo.elf, "--scenario", scenario])
            #expect(refused.code == 18, "\(bad)")
            #expect(refused.err == "tiltsim: \(scenario): step 1: send-serial takes text or a list of byte values 0…255 ([0xFF, 16])\n", "\(bad)")
        }
    }

    /// A loose sensor wire mid-run: tilt_bar's reads come back empty (Wire
    /// gives -1 for a byte that never came), and once wired again the sensor
    /// is powered on from reset, asleep, so its data registers read 0: what a
    /// real module does when a jumper with its VCC comes off and back.
    @Test(arguments: ["yaml", "json"])
    func aScenarioTakesTheSensorsWiresOffAndPutsThemBack(format: String) throws {
        let bar = try SketchFixtures.tiltBar.get()
        let scenario = temporary("wires.\(format)")
        let yaml = """
            timeout: 5
            noise: 0
            steps:
              - pose: [30, 25]
              - wait-serial: "^ax=-[1-9][0-9]+$"
              - sensor-wires: off
              - wait-serial: "^ax=-1$"
              - sensor-wires: on
              - wait-serial: "^ax=0$"
            """
        let json = """
            {"timeout": 5, "noise": 0, "steps": [{"pose": [30, 25]}, {"wait-serial": "^ax=-[1-9][0-9]+$"},
              {"sensor-wires": false}, {"wait-serial": "^ax=-1$"}, {"sensor-wires": "on"}, {"wait-serial": "^ax=0$"}]}
            """
        try (format == "yaml" ? yaml : json).write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let result = try tiltsim.run(["run", bar.elf, "--scenario", scenario, "--quiet"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.contains("sensor wires off"))
        #expect(result.err.contains("serial matched /^ax=-1$/"))

        let bad = temporary("badwires.\(format)")
        try (format == "yaml" ? "steps:\n  - sensor-wires: loose\n" : #"{"steps": [{"sensor-wires": 2}]}"#)
            .write(toFile: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let refused = try tiltsim.run(["run", bar.elf, "--scenario", bad])
        #expect(refused.code == 18)
        #expect(refused.err == "tiltsim: \(bad): step 1: sensor-wires must be off or on\n")

        // Wokwi's delay style: the unit here is the second, said so (it said only "must be a number").
        try (format == "yaml" ? "steps:\n  - wait: 500ms\n" : #"{"steps": [{"wait": "500ms"}]}"#)
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let millis = try tiltsim.run(["run", bar.elf, "--scenario", bad])
        #expect(millis.code == 18 && millis.err == "tiltsim: \(bad): step 1: wait 500ms: give simulated seconds as a number, e.g. 0.5 for 500 ms\n", "\(millis.err)")
    }

    /// A scenario that compares with a screenshot it saved itself compares
    /// with that screen, grey and all (the file was read before the run: a
    /// missing one was refused, an old one compared).
    @Test func aScreenshotSavedByTheScenarioIsComparedAsSaved() throws {
        let bar = try SketchFixtures.tiltBar.get()
        let shot = temporary("saved.png"), scenario = temporary("again.yaml")
        defer { for path in [shot, scenario] { try? FileManager.default.removeItem(atPath: path) } }
        try "timeout: 2\nnoise: 0\nsteps:\n  - pose: [20, 0]\n  - wait: 0.5\n  - screenshot: \(shot)\n  - wait: 0.1\n  - expect-screen: \(shot)\n"
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        let result = try tiltsim.run(["run", bar.elf, "--scenario", scenario, "--quiet"])
        #expect(result.code == 0, "\(result.err)")
        #expect(FileManager.default.fileExists(atPath: shot))
    }

    /// A scenario whose aliases nest ("billion laughs": 389 bytes, 9^10
    /// nodes expanded) is refused before it is built (it grew by 50 MB a
    /// second and never ended); a folder, a FIFO and a device are named as
    /// such before anything is opened (a FIFO's open waited for a writer).
    @Test func scenariosThatCannotBeReadAreRefusedInOneLine() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let laughs = temporary("laughs.yaml")
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...10 { yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n" }
        try (yaml + "steps: [*a10]\n").write(toFile: laughs, atomically: true, encoding: .utf8)
        let fifo = temporary("scenario.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { for path in [laughs, fifo] { try? FileManager.default.removeItem(atPath: path) } }
        let folder = FileManager.default.temporaryDirectory.path
        // As long without aliases (34 000 steps written out), and the same in JSON, which JSONSerialization
        // would have built in 1 GB for 340 000 steps: refused before it is parsed.
        let long = temporary("long.yaml"), longJSON = temporary("long.json")
        try ("steps:\n" + String(repeating: "- wait: 0\n", count: 34_000)).write(toFile: long, atomically: true, encoding: .utf8)
        try ("{\"steps\":[" + Array(repeating: #"{"wait":0}"#, count: 50_001).joined(separator: ",") + "]}")
            .write(toFile: longJSON, atomically: true, encoding: .utf8)
        defer { for path in [long, longJSON] { try? FileManager.default.removeItem(atPath: path) } }
        let yamlLimit = "more than 100000 YAML nodes (keys and values, aliases expanded): longer than any scenario a person writes, "
            + "or aliases of aliases; split it, or write the aliases out"
        for (path, message) in [(laughs, "\(laughs): " + yamlLimit), (long, "\(long): " + yamlLimit),
                                (longJSON, "\(longJSON): more than 100000 JSON keys and values: longer than any a person writes; is it the file you meant?"),
                                (folder, "\(folder) is a folder; give the scenario file in it"),
                                (fifo, "\(fifo) is not a regular file (a FIFO, socket or device); give the scenario file as a file"),
                                ("/dev/zero", "/dev/zero is not a regular file (a FIFO, socket or device); give the scenario file as a file")] {
            let refused = try tiltsim.run(["run", echo.elf, "--scenario", path], seconds: 20)
            #expect(refused.code == 18, "\(path): \(refused.err)")
            #expect(refused.err == "tiltsim: \(message)\n")
        }
    }

    /// A JSON scenario that repeats a key in an object is refused with its
    /// place, as a YAML one is (it ran with the last value); the same key in
    /// two objects, or spelt with an escape, is told apart as JSON reads it.
    @Test func aJSONScenarioThatRepeatsAKeyIsRefused() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let folder = try ScratchFolder()
        let cases = [(#"{"timeout":2,"timeout":3,"steps":[{"wait":0.1}]}"#, "1:14: key 'timeout' appears twice (first on line 1)"),
                     ("{\"steps\": [{\"wait\": 0.1},\n  {\"wait-serial\": \"a\\\"b\", \"timeout\": 1, \"ti\\u006deout\": 2}]}",
                      "2:41: key 'timeout' appears twice (first on line 2)")]
        for (index, (json, problem)) in cases.enumerated() {
            let file = folder.path + "/d\(index).json"
            try json.write(toFile: file, atomically: true, encoding: .utf8)
            let run = try tiltsim.run(["run", echo.elf, "--quiet", "--scenario", file])
            #expect(run.code == 18, "\(json): \(run.err)")
            #expect(run.err == "tiltsim: \(file):\(problem); keep one\n")
        }
        // YAML's reader marks the key's first place ("not valid YAML: Parser: … Context: … in line 1" before).
        let yaml = folder.path + "/d.yaml"
        try "steps:\n  - wait: 0.1\ntimeout: 2\ntimeout: 3\n".write(toFile: yaml, atomically: true, encoding: .utf8)
        let repeated = try tiltsim.run(["run", echo.elf, "--quiet", "--scenario", yaml])
        #expect(repeated.code == 18)
        #expect(repeated.err == "tiltsim: \(yaml):3:1: key 'timeout' appears more than once in this mapping, first here; keep one\n", "\(repeated.err)")
        let apart = folder.path + "/apart.json"
        try #"{"timeout": 0.2, "steps": [{"wait": 0.1, "timeout": 1}, {"wait": 0.1}]}"#.write(toFile: apart, atomically: true, encoding: .utf8)
        let run = try tiltsim.run(["run", echo.elf, "--quiet", "--scenario", apart])
        #expect(run.err == "tiltsim: \(apart): step 1: 'timeout' belongs to a wait-serial step\n", "not a repeat: \(run.err)")
    }

    /// A YAML key that is a list or a mapping (`[a]: 1`, `? [a]`, a step
    /// `{[x]: 1}`) is refused in one line naming its line, by `run` (18) and
    /// `wokwi` (1), before anything is built from it: Yams force-unwraps a
    /// key as text, and tiltsim trapped (exit 132).
    @Test func aKeyThatIsNotTextIsRefusedWithItsLine() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let folder = try ScratchFolder()
        try #"{"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno"}], "connections": []}"#
            .write(toFile: folder.path + "/diagram.json", atomically: true, encoding: .utf8)
        let cases = [("[a]: 1\n", "line 1: a key that is a list"), ("timeout: 1\n? [a]\nsteps: []\n", "line 2: a key that is a list"),
                     ("steps:\n  - {[x]: 1}\n", "line 2: a key that is a list"), ("steps:\n  - wait: 1\n  - {{a: 1}: 2}\n", "line 3: a key that is a mapping")]
        for (index, (yaml, problem)) in cases.enumerated() {
            let file = folder.path + "/k\(index).yaml"
            try yaml.write(toFile: file, atomically: true, encoding: .utf8)
            let run = try tiltsim.run(["run", echo.elf, "--quiet", "--scenario", file])
            #expect(run.code == 18, "\(yaml): \(run.err)")
            #expect(run.err == "tiltsim: \(file): \(problem); a key is text (quote it)\n")
            let wokwi = try tiltsim.run(["wokwi", folder.path, "--elf", echo.elf, "--scenario", "k\(index).yaml"])
            #expect(wokwi.code == 1, "\(yaml): \(wokwi.err)")
            #expect(wokwi.err == "Error: \(file): \(problem); a key is text (quote it)\n")
        }
    }

    /// A motion script with an infinite time is refused with its line, by
    /// `--script` (with `--loop` it trapped, exit 132) and by a wokwi
    /// `tiltsim: {script: …}` step; a CRLF script runs.
    @Test func aScriptsTimesAreCheckedAndItsCRLFRead() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let folder = try ScratchFolder()
        let infinite = folder.path + "/inf.txt", crlf = folder.path + "/crlf.txt"
        try "0 30 0\ninf 30 0\n".write(toFile: infinite, atomically: true, encoding: .utf8)
        try "0 30 0\r\n1 30 25\r\n".write(toFile: crlf, atomically: true, encoding: .utf8)
        let run = try tiltsim.run(["run", echo.elf, "--quiet", "--timeout", "1", "--script", infinite, "--loop"])
        #expect(run.code == 18)
        #expect(run.err == "tiltsim: \(infinite): motion script line 2: time inf s: give seconds from 0 to 86400\n")
        let windows = try tiltsim.run(["run", echo.elf, "--quiet", "--timeout", "0.1", "--script", crlf, "--loop"])
        #expect(windows.code == 0, "\(windows.err)")
        try #"{"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno"}], "connections": []}"#
            .write(toFile: folder.path + "/diagram.json", atomically: true, encoding: .utf8)
        try "name: inf\nversion: 1\nsteps:\n  - tiltsim: {script: inf.txt}\n".write(toFile: folder.path + "/inf.yaml", atomically: true, encoding: .utf8)
        let wokwi = try tiltsim.run(["wokwi", folder.path, "--elf", echo.elf, "--scenario", "inf.yaml"])
        #expect(wokwi.code == 1)
        #expect(wokwi.err == "Error: \(infinite): motion script line 2: time inf s: give seconds from 0 to 86400\n", "\(wokwi.err)")
    }

    /// A path holding ESC or a newline is escaped in the error line, so it
    /// can neither drive the terminal nor split the line (it was printed raw).
    @Test func aPathWithControlCharactersIsEscapedInTheErrorLine() throws {
        let path = "/tmp/x\u{1b}[31mRED\nSECOND"
        let refused = try tiltsim.run(["run", path])
        #expect(refused.code == 27)
        #expect(refused.err == "tiltsim: cannot open firmware /tmp/x\\u{1b}[31mRED\\nSECOND: no such file\n", "\(refused.err)")
    }

    /// A firmware that is a FIFO or a folder is refused before it is opened
    /// (a FIFO's open waited for a writer, for ever).
    @Test func aFirmwareThatIsNoRegularFileIsRefused() throws {
        let fifo = temporary("firmware.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let refused = try tiltsim.run(["run", fifo], seconds: 20)
        #expect(refused.code == 27)
        #expect(refused.err == "tiltsim: \(fifo) is not a regular file (a FIFO or device); pass the .elf or .hex that avr-gcc or the Arduino IDE built\n")
    }

    /// A sketch's sensor lies on the table at power-on unless told otherwise
    /// (as Wokwi starts it): 1 g on z. It was our firmware's rest pose, 60°
    /// from flat, which a sketch calibrating at power-on took for level.
    @Test func theSensorStartsFlatUnlessAMotionIsGiven() throws {
        let sketch = try SketchFixtures.softI2C.get()
        let flat = try tiltsim.run(["run", sketch.hex, "--expect-serial", "^E$", "--noise", "0"])
        #expect(flat.code == 0, "\(flat.err)")
        #expect(flat.out.contains("A 0 0 16384\r\n"), "\(flat.out)")
        let rest = try tiltsim.run(["run", sketch.hex, "--expect-serial", "^E$", "--noise", "0", "--motion", "rest"])
        #expect(rest.out.contains("A 0 14189 8192\r\n"), "sin 60° and cos 60° of 1 g: \(rest.out)")
    }

    /// A sketch that prints before Serial.begin (its Serial.begin behind a
    /// DEBUG switch) hangs in Serial.write on the chip, screen dark: the run
    /// says why, once; a sketch that begins first hears nothing of it.
    @Test func printingBeforeSerialBeginIsNamed() throws {
        let unbegun = try SketchFixtures.serialUnbegun.get()
        let hung = try tiltsim.run(["run", unbegun.hex, "--timeout", "1"])
        let note = "the sketch writes to Serial before Serial.begin (its transmitter off): the chip sends none of it, "
            + "and once 64 bytes wait, Serial.write waits for ever; call Serial.begin first"
        #expect(hung.err.components(separatedBy: note).count == 2, "once: \(hung.err)")
        #expect(hung.out.isEmpty)
        let begun = try tiltsim.run(["run", try SketchFixtures.softI2C.get().hex, "--expect-serial", "^E$"])
        #expect(begun.code == 0 && !begun.err.contains("before Serial.begin"), "\(begun.err)")
    }

    /// A dark 128×64 PNG at 1×.
    static func blankPNG() -> String {
        let path = ScratchSpace.root + "/tiltsim-blank.png"
        if !FileManager.default.fileExists(atPath: path) {
            #expect(FileManager.default.createFile(atPath: path, contents: Data(PNGEncoder.encode(Screen(), scale: 1))))
        }
        return path
    }
}
