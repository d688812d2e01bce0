import Foundation
import Testing
import TiltDisplay
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `--display-address`, `--sensor-address`, `--sensor-int` (and a scenario's
/// `board:`): sketches written for other modules, in `tiltsim run` and `tiltsim`.
@Suite struct TiltsimWiringTests {
    let tiltsim = TiltsimCommandTests()

    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tiltsim-wiring-\(getpid())-\(UUID().uuidString.prefix(6))-\(name)").path
    }

    /// int_pin polls D2, D3, D8 and A0 for 200 ms of DATA_RDY latched at 100 Hz.
    static func seen(d2: String = "0", d3: String = "0", d8: String = "0", a0: String = "0") -> String {
        "^I d2=\(d2) d3=\(d3) d8=\(d8) a0=\(a0)$"
    }
    static let twenty = "(19|20|21)"

    @Test func theSensorAnswersAtItsAddressAndDrivesThePinItIsWiredTo() throws {
        let sketch = try SketchFixtures.intPin.get()
        let standard = try tiltsim.run(["run", sketch.elf, "--quiet", "--expect-serial", "^A 68$",
                                        "--expect-serial", Self.seen(d2: Self.twenty)])
        #expect(standard.code == 0, "\(standard.err)")
        #expect(!standard.err.contains("wired:"), "the standard wiring goes unsaid")

        let moved = try tiltsim.run(["run", sketch.hex, "--quiet", "--sensor-address", "0x69", "--sensor-int", "D8",
                                     "--expect-serial", "^A 69$", "--expect-serial", Self.seen(d8: Self.twenty)])
        #expect(moved.code == 0, "\(moved.err)")
        #expect(moved.err.contains("tiltsim run: 0.000 s: wired: SSD1306 at 0x3C, MPU-6050 at 0x69 (INT on D8)\n"))

        let analog = try tiltsim.run(["run", sketch.elf, "--quiet", "--sensor-int", "a0", "--expect-serial", Self.seen(a0: Self.twenty)])
        #expect(analog.code == 0, "\(analog.err)")
        let unwired = try tiltsim.run(["run", sketch.elf, "-q", "--sensor-int", "none", "--expect-serial", Self.seen()])
        #expect(unwired.code == 0, "\(unwired.err)")
        #expect(standard.out.isEmpty && unwired.out.isEmpty, "--quiet and -q keep the serial output off stdout")
        let absent = try tiltsim.run(["run", sketch.elf, "--quiet", "--sensor-address", "none", "--expect-serial", "^A none$"])
        #expect(absent.code == 0, "\(absent.err)")
        #expect(absent.err.contains("wired: SSD1306 at 0x3C, no MPU-6050\n"))
    }

    /// `--sensor` (or `board: {sensor: …}`) picks the part, by name or by the
    /// WHO_AM_I a look-alike answers; a register-level sketch reads it back.
    @Test(arguments: [("mpu6500", "70", "MPU-6500"), ("0x98", "98", "MPU-6050 look-alike (WHO_AM_I 0x98)")])
    func theSensorAnswersAsThePartItIs(part: String, whoAmI: String, name: String) throws {
        let probe = try AVRTestFirmware.path()
        let run = try tiltsim.run(["run", probe, "--quiet", "--sensor", part, "--expect-serial", "^W\(whoAmI)$"])
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains("wired: SSD1306 at 0x3C, \(name) at 0x68 (INT on D2)\n"), "\(run.err)")
        let standard = try tiltsim.run(["run", probe, "--quiet", "--expect-serial", "^W68$"])
        #expect(standard.code == 0, "\(standard.err)")
    }

    @Test func theDisplayAnswersAtItsAddress() throws {
        let tiles = try SketchFixtures.built("u8x8_tiles").get(), bar = try SketchFixtures.tiltBar.get()
        func screen(_ sketch: String, _ options: [String]) throws -> [UInt8] {
            let png = temporary("screen.png")
            defer { try? FileManager.default.removeItem(atPath: png) }
            let result = try tiltsim.run(["run", sketch, "--quiet", "--timeout", "1", "--screenshot", "1:\(png)"] + options)
            #expect(result.code == 0, "\(result.err)")
            return try #require(StoredPNG.grey(Array(try Data(contentsOf: URL(fileURLWithPath: png)))), "a PNG").pixels
        }
        // u8x8_tiles looks for its display at 0x3C, then 0x3D: the same tiles either way.
        let at3C = try screen(tiles.elf, []), at3D = try screen(tiles.elf, ["--display-address", "0x3D"])
        #expect(at3C.contains { $0 != 0 }, "tiles on the glass")
        #expect(at3C == at3D)
        // tilt_bar talks to 0x3C only: with the module at 0x3D its glass stays dark.
        #expect(try screen(bar.elf, []).contains { $0 != 0 })
        #expect(try screen(bar.elf, ["--display-address", "3d"]).allSatisfy { $0 == 0 })
        // none: nothing answers at either address (to rehearse a display that does not answer).
        #expect(try screen(tiles.elf, ["--display-address", "none"]).allSatisfy { $0 == 0 })
        let said = try tiltsim.run(["run", tiles.elf, "--timeout", "0.2", "--display-address", "none"])
        #expect(said.err.contains("wired: no display, MPU-6050 at 0x68 (INT on D2)\n"), "\(said.err)")
    }

    /// A sketch that calls the display (or the sensor) one address off, and
    /// never at its own, is told so once at the end with the option that
    /// wires it there (Adafruit's 128x64 example talks to 0x3D and stayed
    /// dark without a word); one that finds the part (u8x8_tiles tries 0x3C,
    /// then 0x3D) or calls its own address is told nothing.
    @Test func aPartCalledOneAddressOffIsNamed() throws {
        let tiles = try SketchFixtures.built("u8x8_tiles").get(), bar = try SketchFixtures.tiltBar.get()
        let note = "the sketch called I2C address 0x3C, where nothing answers, and never 0x3D, where the display is; "
            + "wire it at 0x3C (--display-address 0x3C; in a diagram, the display's i2cAddress)\n"
        let off = try tiltsim.run(["run", bar.elf, "--quiet", "--timeout", "0.5", "--display-address", "0x3D"])
        #expect(off.code == 0 && off.err.contains("tiltsim run: 0.500 s: " + note), "\(off.err)")
        for (sketch, options) in [(tiles.elf, ["--display-address", "0x3D"]), (bar.elf, [])] {
            let quiet = try tiltsim.run(["run", sketch, "--quiet", "--timeout", "0.5"] + options)
            #expect(quiet.code == 0 && !quiet.err.contains("nothing answers"), "\(quiet.err)")
        }
    }

    /// `--display` names the module; the run's first line says which.
    @Test(arguments: [("sh1106", "SH1106"), ("SSD1306-128x32", "SSD1306 128x32")])
    func theDisplayIsTheModuleNamed(option: String, name: String) throws {
        let sketch = try SketchFixtures.intPin.get()
        let run = try tiltsim.run(["run", sketch.elf, "--quiet", "--display", option, "--timeout", "0.1"])
        #expect(run.err.contains("wired: \(name) at 0x3C, MPU-6050 at 0x68 (INT on D2)\n"), "\(run.err)")
    }

    /// `--display-max-clock` (or `board: {display-max-clock: …}`): a module
    /// that does not answer beyond a clock; the run's first line says so.
    /// (What our firmware does with such a module: DisplayClockTests.)
    @Test func theDisplaysClockLimitIsWiredAndSaid() throws {
        let sketch = try SketchFixtures.intPin.get()
        let run = try tiltsim.run(["run", sketch.elf, "--quiet", "--display-max-clock", "400k", "--timeout", "0.1"])
        #expect(run.err.contains("wired: SSD1306 at 0x3C (up to 400 kHz), MPU-6050 at 0x68 (INT on D2)\n"), "\(run.err)")
        let scenario = temporary("max-clock.yaml")
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        try "board: {display-max-clock: 800k}\nsteps: []\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        let fromFile = try tiltsim.run(["run", sketch.elf, "--quiet", "--scenario", scenario, "--timeout", "0.1"])
        #expect(fromFile.err.contains("wired: SSD1306 at 0x3C (up to 800 kHz), MPU-6050"), "\(fromFile.err)")
        // Any clock the bus runs, as people write it (100k was refused).
        let slow = try tiltsim.run(["run", sketch.elf, "--quiet", "--display-max-clock", "100 kHz", "--timeout", "0.1"])
        #expect(slow.err.contains("wired: SSD1306 at 0x3C (up to 100 kHz), MPU-6050"), "\(slow.err)")
    }

    @Test(arguments: ["yaml", "json"])
    func aScenarioWiresTheBoardAndTheCommandLineWins(format: String) throws {
        let sketch = try SketchFixtures.intPin.get()
        let scenario = temporary("board.\(format)")
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let text = format == "yaml"
            ? "board: {sensor-address: 0x69, sensor-int: D3}\nsteps:\n  - wait-serial: \"^A 69$\"\n"
            : #"{"board": {"sensor-address": "0x69", "sensor-int": "D3"}, "steps": [{"wait-serial": "^A 69$"}]}"#
        try text.write(toFile: scenario, atomically: true, encoding: .utf8)
        let fromFile = try tiltsim.run(["run", sketch.elf, "--quiet", "--scenario", scenario, "--expect-serial", Self.seen(d3: Self.twenty)])
        #expect(fromFile.code == 0, "\(fromFile.err)")
        #expect(fromFile.err.contains("wired: SSD1306 at 0x3C, MPU-6050 at 0x69 (INT on D3)"))
        let overridden = try tiltsim.run(["run", sketch.elf, "--quiet", "--scenario", scenario, "--sensor-int", "D2",
                                          "--expect-serial", Self.seen(d2: Self.twenty)])
        #expect(overridden.code == 0, "\(overridden.err)")

        let sh1106 = temporary("sh1106.\(format)")
        defer { try? FileManager.default.removeItem(atPath: sh1106) }
        try (format == "yaml" ? "board: {display: sh1106}\nsteps: []\n" : #"{"board": {"display": "SH1106"}, "steps": []}"#)
            .write(toFile: sh1106, atomically: true, encoding: .utf8)
        let display = try tiltsim.run(["run", sketch.elf, "--quiet", "--scenario", sh1106, "--timeout", "0.1"])
        #expect(display.err.contains("wired: SH1106 at 0x3C, MPU-6050 at 0x68 (INT on D2)"), "\(display.err)")

        let typo = temporary("typo.\(format)")
        defer { try? FileManager.default.removeItem(atPath: typo) }
        try (format == "yaml" ? "board: {display-adress: 0x3D}\nsteps: []\n" : #"{"board": {"display-address": 62}, "steps": []}"#)
            .write(toFile: typo, atomically: true, encoding: .utf8)
        let bad = try tiltsim.run(["run", sketch.elf, "--scenario", typo])
        #expect(bad.code == 18)
        #expect(bad.err == (format == "yaml"
            ? "tiltsim: \(typo): unknown board key 'display-adress'; use one of display, display-address, display-max-clock, sensor-address, sensor, sensor-int\n"
            : "tiltsim: \(typo): board: display-address 62: an SSD1306 answers at 0x3C, or 0x3D with SA0 high (none: no display)\n"))
    }

    /// `--board` picks the firmware's build for the board (Hardware/boards.mk),
    /// which only the avr engine runs.
    @Test func aBoardForTheNativeEngineGetsOneLine() throws {
        let cases: [([String], String)] = [
            (["--engine", "native", "--board", "mega"], "tiltsim: --board applies to --engine avr only; drop it or use --engine avr\n"),
            (["--rate", "1000", "--board", "leonardo"], "tiltsim: --board runs the board's firmware (--engine avr), but --rate chose "
                + "the native engine; drop --rate (the firmware samples at the rate its host asks for) or drop --board\n"),
        ]
        for (arguments, message) in cases {
            let result = try tiltsim.run(arguments)
            #expect(result.code == 21, "\(arguments)")
            #expect(result.err == message)
        }
    }

    @Test func badWiringGetsOneLineAndTheUsageCode() throws {
        let sketch = try SketchFixtures.intPin.get()
        let cases: [([String], String)] = [
            (["run", sketch.elf, "--display-address", "0x3E"], "tiltsim: --display-address 0x3E: an SSD1306 answers at 0x3C, or 0x3D with SA0 high (none: no display)\n"),
            (["run", sketch.elf, "--sensor-address", "0x70"], "tiltsim: --sensor-address 0x70: an MPU-6050 answers at 0x68, or 0x69 with AD0 high (none: no sensor)\n"),
            (["run", sketch.elf, "--sensor-int", "D1"], "tiltsim: --sensor-int D1: D1 is the UART's (the serial port); pick another pin\n"),
            (["run", sketch.elf, "--sensor-int", "A4"], "tiltsim: --sensor-int A4: A4 is the I2C bus's (SDA/SCL); pick another pin\n"),
            (["run", sketch.elf, "--sensor-int", "D14"], "tiltsim: --sensor-int D14: name an Uno pin, D2 to D13 or A0 to A3 (or PD2-style), or none\n"),
            (["run", sketch.elf, "--board", "leonardo", "--sensor-int", "D2"], "tiltsim: --sensor-int D2: D2 is the I2C bus's (SDA/SCL); pick another pin\n"),
            (["run", sketch.elf, "--board", "leonardo", "--sensor-int", "D14"], "tiltsim: --sensor-int D14: name a Leonardo pin, D0, D1, D4 to D13 or A0 to A5 (or PD2-style), or none\n"),
            (["--board", "mega", "--sensor-int", "D21"], "tiltsim: --sensor-int D21: D21 is the I2C bus's (SDA/SCL); pick another pin\n"),
            (["--board", "mega", "--sensor-int", "D0"], "tiltsim: --sensor-int D0: D0 is the UART's (the serial port); pick another pin\n"),
            (["run", sketch.elf, "--display", "ssd1309"], "tiltsim: --display ssd1309: name the display module, ssd1306, sh1106, ssd1306-128x32\n"),
            (["run", sketch.elf, "--display-max-clock", "3.4m"], "tiltsim: --display-max-clock 3.4m: give the display's fastest clock, 100k to 1m (400k, 800k, 1m), or any\n"),
            (["--engine", "native", "--display", "sh1106"], "tiltsim: --display, --display-address, --display-max-clock, --sensor-address, --sensor and --sensor-int wire the avr engine's parts; drop them or use --engine avr\n"),
            (["run", sketch.elf, "--sensor", "0xFF"], "tiltsim: --sensor 0xFF: name a part (mpu6050, mpu6500, mpu9250, mpu9255) or its WHO_AM_I, e.g. 0x98 (not 0x00 or 0xFF)\n"),
            (["--engine", "native", "--display-address", "0x3D"], "tiltsim: --display, --display-address, --display-max-clock, --sensor-address, --sensor and --sensor-int wire the avr engine's parts; drop them or use --engine avr\n"),
            (["--rate", "500", "--sensor-int", "D3"], "tiltsim: --display, --display-address, --display-max-clock, --sensor-address, --sensor and --sensor-int wire the avr engine's parts; drop them or use --engine avr\n"),
            (["--engine", "native", "--sensor", "mpu6500"], "tiltsim: --display, --display-address, --display-max-clock, --sensor-address, --sensor and --sensor-int wire the avr engine's parts; drop them or use --engine avr\n"),
        ]
        for (arguments, message) in cases {
            let result = try tiltsim.run(arguments)
            #expect(result.code == 21, "\(arguments)")
            #expect(result.err == message)
        }
    }

    /// int_pin built for the Leonardo (`--board leonardo`): its Serial is the
    /// 32U4's USB (the sketch waits for DTR, which the emulated host raises),
    /// and pins go by the Leonardo's header: INT on D7 (INT6) unless told,
    /// D4, D8, A0 as asked, D1 allowed (a second UART there, not the serial
    /// port). The run names the pin as the Leonardo does.
    @Test func aLeonardoSketchRunsWithTheLeonardosPinNames() throws {
        let sketch = try SketchFixtures.intPinLeonardo.get()
        func seen(d7: String = "0", d4: String = "0", d8: String = "0", a0: String = "0") -> String {
            "^I d7=\(d7) d4=\(d4) d8=\(d8) a0=\(a0)$"
        }
        let cases: [([String], String)] = [
            ([], seen(d7: Self.twenty)), (["--sensor-int", "D4"], seen(d4: Self.twenty)),
            (["--sensor-int", "d8"], seen(d8: Self.twenty)), (["--sensor-int", "A0"], seen(a0: Self.twenty)),
            (["--sensor-int", "PB4"], seen(d8: Self.twenty)), (["--sensor-int", "D1"], seen()), (["--sensor-int", "none"], seen()),
        ]
        for (wiring, expected) in cases {
            let result = try tiltsim.run(["run", "--board", "leonardo", sketch.hex, "--quiet", "--expect-serial", "^A 68$",
                                          "--expect-serial", expected] + wiring)
            #expect(result.code == 0, "\(wiring): \(result.err)")
        }
        let named = try tiltsim.run(["run", "--board", "leonardo", sketch.elf, "--quiet", "--sensor-int", "pb4", "--expect-serial", "^E"])
        #expect(named.err.contains("wired: SSD1306 at 0x3C, MPU-6050 at 0x68 (INT on D8)\n"), "\(named.err)")
    }

    /// `tiltsim` (not `run`): the board on its pty, wired as asked.
    @Test func tiltsimServesASketchWiredAsAsked() throws {
        let sketch = try SketchFixtures.intPin.get()
        let child = try TiltsimChild(["--firmware", sketch.elf, "--free-running", "--sensor-address", "0x69", "--sensor-int", "D3"])
        defer { child.stop() }
        let port = try PtyPeer(opening: child.firstLine, keepText: true)
        let text = try #require(port.text(until: "\nE"), "int_pin's report; so far: \(port.text)")
        #expect(text.contains("A 69\r"))
        #expect(text.range(of: "I d2=0 d3=" + Self.twenty + " d8=0 a0=0\r", options: .regularExpression) != nil, "\(text)")
    }
}

/// A `tiltsim` subprocess whose first stdout line (the pty path) is read as it comes.
final class TiltsimChild {
    let process = Process()
    let out = Pipe(), err = Pipe()
    private(set) var firstLine = ""

    init(_ arguments: [String]) throws {
        process.executableURL = TiltsimCommandTests.products.appendingPathComponent("tiltsim")
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var line: [UInt8] = []
        let fd = out.fileHandleForReading.fileDescriptor
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        firstLine = String(decoding: line, as: UTF8.self)
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
