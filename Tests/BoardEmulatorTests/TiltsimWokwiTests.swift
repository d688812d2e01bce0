import Foundation
import Testing
import TiltDisplay

/// `tiltsim wokwi` as wokwi-cli's users run it: the example projects under
/// examples/ (built by `make fixtures`), their verdicts and exit codes, twice
/// for determinism, and the refusals that name the fix.
@Suite struct TiltsimWokwiTests {
    let tiltsim = TiltsimCommandTests()

    func project(_ name: String) throws -> String {
        let folder = BuiltFirmware.root + "/examples/" + name
        if name != "uno-tiltserial" { _ = try BuiltFirmware.existing("examples/\(name)/build/tilt_bubble.hex", builtBy: "make fixtures (make -C examples)").get() }
        return folder
    }

    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tiltsim-wokwi-\(getpid())-\(UUID().uuidString.prefix(6))-\(name)").path
    }

    @Test func theTiltScenarioPassesTwiceWithTheSameSerialBytes() throws {
        let folder = try project("nano-tilt")
        var logs: [Data] = []
        for run in 0..<2 {
            let log = temporary("tilt\(run).log")
            defer { try? FileManager.default.removeItem(atPath: log) }
            let result = try tiltsim.run(["wokwi", folder, "--scenario", "tilt.test.yaml", "--serial-log-file", log])
            #expect(result.code == 0, "\(result.err)")
            #expect(result.out.hasSuffix("[Tilt the bubble] Scenario completed successfully\n"))
            // set-control's 0.5 g and 0.875 g read back exactly at ±2 g (16384 counts per g).
            #expect(result.out.contains("ax=8192 ay=0 az=14336\r\n"))
            #expect(result.out.contains("led1:A (PB5) is 1"))
            #expect(result.out.contains("screen equals"))
            logs.append(try Data(contentsOf: URL(fileURLWithPath: log)))
        }
        #expect(logs[0] == logs[1])
        #expect(String(decoding: logs[0], as: UTF8.self).hasPrefix("tilt_bubble: MPU-6050 found\r\npot=700\r\nax=0 ay=0 az=16384\r\n"))
    }

    /// A potentiometer's `position` control (0.0 to 1.0, as Wokwi's docs
    /// give it) turns the knob: tilt_bubble prints the new analogRead (a
    /// quarter of 5 V reads 256, as on the chip and on Wokwi).
    @Test func aPotentiometersPositionTurnsTheKnob() throws {
        let folder = try project("nano-tilt")
        let scenario = folder + "/knob.tmp.yaml"
        try """
            name: knob
            version: 1
            steps:
              - wait-serial: 'pot=700'
              - set-control: {part-id: pot1, control: position, value: 0.25}
              - wait-serial: 'pot=256'
              - set-control: {part-id: pot1, control: position, value: 1}
              - wait-serial: 'pot=1023'
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "knob.tmp.yaml"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.hasSuffix("[knob] Scenario completed successfully\n"), "\(result.out)")

        try """
            name: knob
            version: 1
            steps:
              - set-control: {part-id: pot1, control: position, value: 2}
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let refused = try tiltsim.run(["wokwi", folder, "--scenario", "knob.tmp.yaml"])
        #expect(refused.code == 1)
        #expect(refused.err.contains("set-control pot1: position 2 is outside 0 to 1"), "\(refused.err)")

        // No steps: completed at once, as wokwi-cli's; it ran to the timeout, and with --timeout 0 for ever.
        try "name: none\nversion: 1\nsteps: []\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        let none = try tiltsim.run(["wokwi", folder, "--scenario", "knob.tmp.yaml", "--timeout", "0"])
        #expect(none.code == 0 && none.out.hasSuffix("[none] Scenario completed successfully\n"), "\(none.err)")
        #expect(!none.out.contains("pot=700"), "the sketch ran: \(none.out)")
    }

    /// A project folder in the temporary directory: the sketch's HEX, a
    /// wokwi.toml naming it, `diagram` and `scenario` (as scenario.test.yaml).
    func projectFolder(_ sketch: Result<SketchFixtures.Built, AVRTestFailure>, named name: String, diagram: String,
                       scenario: String) throws -> String {
        let hex = try sketch.get().hex
        let folder = temporary(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: hex, toPath: folder + "/sketch.hex")
        try "[wokwi]\nversion = 1\nfirmware = 'sketch.hex'\n".write(toFile: folder + "/wokwi.toml", atomically: true, encoding: .utf8)
        try diagram.write(toFile: folder + "/diagram.json", atomically: true, encoding: .utf8)
        try scenario.write(toFile: folder + "/scenario.test.yaml", atomically: true, encoding: .utf8)
        return folder
    }

    /// A wire between two of the board's pins joins them, as on a board:
    /// an output drives the other pin (D7 to D6), a pull-up pulls it, an
    /// interrupt follows the edges it gets (D3 to INT0 on D2, through a
    /// breadboard strip), three pins on one net all follow the output (D8 to
    /// D9 and D10), and a button on one pin of a net pulls the others too.
    /// Such wires were dropped without a word: D6 read 0.
    @Test func wiresBetweenTheBoardsPinsJoinThem() throws {
        let folder = try projectFolder(SketchFixtures.jumper, named: "jumper", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "attrs": {}},
                       {"type": "wokwi-breadboard-mini", "id": "bb1", "attrs": {}},
                       {"type": "wokwi-pushbutton", "id": "btn1", "attrs": {}}],
             "connections": [["uno:7", "uno:6", "green", []], ["uno:3", "bb1:10t.a", "blue", []], ["bb1:10t.c", "uno:2", "blue", []],
                             ["uno:8", "uno:9", "red", []], ["uno:10", "uno:9", "red", []],
                             ["uno:11", "uno:12", "", []], ["btn1:1.l", "uno:11", "", []], ["btn1:2.l", "uno:GND.1", "", []]]}
            """, scenario: """
            name: jumper
            version: 1
            steps:
              - wait-serial: 'press'
              - set-control:
                  part-id: btn1
                  control: pressed
                  value: 1
              - wait-serial: 'done'

            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "2000", "-q"])
        #expect(result.code == 0, "\(result.err)")
        let values = SketchRunTests.figures(Array(result.out.utf8), separator: "=")
        #expect(values["d6_high"] == 1 && values["d6_low"] == 0 && values["d6_pulled"] == 1, "\(values)")
        #expect(values["int0_rising"] == 10, "\(values)")
        #expect(values["d9_d10_low"] == 0 && values["d9_d10_high"] == 11, "\(values)")
        #expect(values["d11_d12_released"] == 11 && values["d11_d12_pressed"] == 0, "\(values)")
    }

    /// Two outputs wired together at opposite levels are a short circuit on
    /// a board: said once a net, with when it began and how many times, and
    /// with -q too (it was not said at all). The jumper sketch leaves D3 low,
    /// then drives D8 low and high; past its button (D11 strapped to GND
    /// here), D4 high twice against D5 low.
    @Test func outputsWiredTogetherAtOddsAreSaidToBeAShort() throws {
        func run(_ connections: String) throws -> (code: Int32, out: String, err: String) {
            let folder = try projectFolder(SketchFixtures.jumper, named: "short", diagram: """
                {"version": 1, "author": "test", "editor": "wokwi",
                 "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "attrs": {}}],
                 "connections": [["uno:11", "uno:GND.1", "", []], \(connections)]}
                """, scenario: "")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            return try tiltsim.run(["wokwi", folder, "--expect-text", "shorts done", "--timeout", "2000", "-q"])
        }
        let shorted = try run(#"["uno:8", "uno:3", "red", []], ["uno:7", "uno:6", "green", []], ["uno:4", "uno:5", "", []]"#)
        #expect(shorted.code == 0, "\(shorted.err)")
        let lines = shorted.err.split(separator: "\n").filter { $0.contains("short circuit") }.map(String.init)
        #expect(lines.count == 2, "\(shorted.err)")
        let rest = #": a short circuit on a board, which can damage both pins \(make one an input, or take the wire off\); here each read its own level$"#
        #expect(lines.first?.range(of: #"^D8 and D3 are wired together and were outputs at opposite levels from 0\.\d{3} s"# + rest,
                                   options: .regularExpression) != nil, "\(shorted.err)")
        #expect(lines.last?.range(of: #"^D4 and D5 are wired together and were outputs at opposite levels from 0\.\d{3} s, "#
            + #"2 times \(the last from 0\.\d{3} s\)"# + rest, options: .regularExpression) != nil, "\(shorted.err)")
        // D7 drives D6, an input: no short.
        let driven = try run(#"["uno:7", "uno:6", "green", []]"#)
        #expect(driven.code == 0 && !driven.err.contains("short circuit"), "\(driven.err)")
    }

    /// An LED on an input pin holds it: to GND low (a red LED clamps it near
    /// 1.8 V, even against the pull-up), from 5V high. D4 read the pull-up's
    /// 1 for good after the sketch switched it off, and expect-pin said the
    /// LED was lit.
    @Test func anLEDOnAnInputPinHoldsIt() throws {
        let folder = try projectFolder(SketchFixtures.ledInput, named: "led-input", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "attrs": {}},
                       {"type": "wokwi-led", "id": "led4", "attrs": {"color": "red"}},
                       {"type": "wokwi-resistor", "id": "r4", "attrs": {"value": "220"}},
                       {"type": "wokwi-led", "id": "led5", "attrs": {}},
                       {"type": "wokwi-resistor", "id": "r5", "attrs": {"value": "220"}}],
             "connections": [["led4:A", "uno:4", "", []], ["led4:C", "r4:1", "", []], ["r4:2", "uno:GND.1", "", []],
                             ["uno:5V", "r5:1", "", []], ["r5:2", "led5:A", "", []], ["led5:C", "uno:5", "", []]]}
            """, scenario: """
            name: led input
            version: 1
            steps:
              - wait-serial: 'done'
              - expect-pin: {part-id: led4, pin: A, value: 0}
              - expect-pin: {part-id: led5, pin: C, value: 1}
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "2000", "-q"])
        #expect(result.code == 0, "\(result.err)")
        let values = SketchRunTests.figures(Array(result.out.utf8), separator: "=")
        #expect(values["pullup"] == 0 && values["off"] == 0 && values["from5v"] == 1, "\(values)")
    }

    /// expect-pin on a pin analogWrite drives: tiltsim does not model the
    /// duty cycle on the pin, and the step says so, failed or passed (it
    /// said only "was 0, expected 1", as if the sketch were wrong, and a pass
    /// proved nothing either).
    @Test func anExpectPinOnAPWMPinSaysItsLevelIsNotModelled() throws {
        func run(_ expectations: String) throws -> (code: Int32, out: String, err: String) {
            let folder = try projectFolder(SketchFixtures.pwmLED, named: "pwm", diagram: """
                {"version": 1, "author": "test", "editor": "wokwi",
                 "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "attrs": {}},
                           {"type": "wokwi-led", "id": "led9", "attrs": {}}, {"type": "wokwi-led", "id": "led13", "attrs": {}}],
                 "connections": [["led9:A", "uno:9", "", []], ["led9:C", "uno:GND.1", "", []],
                                 ["led13:A", "uno:13", "", []], ["led13:C", "uno:GND.1", "", []]]}
                """, scenario: "name: pwm\nversion: 1\nsteps:\n  - wait-serial: 'pwm on'\n  - delay: 10ms\n\(expectations)")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            return try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "2000", "-q"])
        }
        let hint = "; PB1 is a timer's compare output (analogWrite's PWM, or a match that clears or sets it), whose level "
            + "tiltsim does not model on the pin: expect a level the sketch sets with digitalWrite, or print the duty cycle "
            + "and wait-serial for it"
        // Whichever level D9 shows at that instant, one of the two fails and the other passes, both with the hint.
        let runs = try [0, 1].map { try run("  - expect-pin: {part-id: led9, pin: A, value: \($0)}\n") }
        let failed = runs.filter { $0.code == 1 }, passed = runs.filter { $0.code == 0 }
        #expect(failed.count == 1 && passed.count == 1, "\(runs.map(\.err))")
        #expect(failed.first?.err.hasSuffix(hint + "\n") == true, "\(failed.first?.err ?? "")")
        // On stderr, with -q too: a CI job sees what its pass is worth.
        #expect(passed.first?.err.contains(hint + "\n") == true, "\(passed.first?.err ?? "")")
        // A pin digitalWrite set goes without it.
        let plain = try run("  - expect-pin: {part-id: led13, pin: A, value: 0}\n")
        #expect(plain.code == 1 && plain.err.hasSuffix("(PB5) was 1, expected 0\n"), "\(plain.err)")
        let lit = try run("  - expect-pin: {part-id: led13, pin: A, value: 1}\n")
        #expect(lit.code == 0 && lit.err.isEmpty, "\(lit.err)")
        // Clear on a match, outside the PWM modes: the same.
        let matched = try run("  - expect-pin: {part-id: uno, pin: 3, value: 0}\n  - expect-pin: {part-id: uno, pin: 3, value: 1}\n")
        #expect(matched.code == 1 && matched.err.contains("(PD3) is 0; PD3 is a timer's compare output"), "\(matched.err)")
        #expect(matched.err.contains("(PD3) was 0, expected 1; PD3 is a timer's compare output"), "\(matched.err)")
    }

    /// Wokwi's joystick rests at VCC/2 on both axes (analogRead 512), its x
    /// and y controls run -1…1 and pressed shorts SEL; the photoresistor
    /// module's AO follows lux through its LDR and 10 kΩ (500 lux: 250, 10
    /// lux: 853, the table in Wokwi's docs; 100 000 lux 8, the exact voltage
    /// floored as the ADC does, not 7 from whole millivolts) and DO goes high in the dark.
    /// Both read 0 before: the parts were ignored.
    @Test func aJoystickAndALightSensorGiveTheirVoltages() throws {
        let folder = try projectFolder(SketchFixtures.analogParts, named: "analog-parts", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [
               {"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-analog-joystick", "id": "stick", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-photoresistor-sensor", "id": "ldr", "top": 0, "left": 0, "attrs": {}}
             ],
             "connections": [
               ["stick:HORZ", "uno:A1", "green", []], ["stick:VERT", "uno:A0", "green", []], ["stick:SEL", "uno:2", "blue", []],
               ["stick:GND", "uno:GND.1", "black", []], ["stick:VCC", "uno:5V", "red", []],
               ["ldr:AO", "uno:A2", "green", []], ["ldr:DO", "uno:7", "blue", []], ["ldr:GND", "uno:GND.2", "black", []], ["ldr:VCC", "uno:5V", "red", []]
             ]}
            """, scenario: """
            name: analog
            version: 1
            steps:
              - wait-serial: 'H=512 V=512 S=1 L=250 D=0'
              - set-control: {part-id: stick, control: x, value: -1}
              - wait-serial: 'H=0 V=512 S=1'
              - set-control: {part-id: stick, control: y, value: 0.5}
              - wait-serial: 'H=0 V=768 S=1'
              - set-control: {part-id: stick, control: pressed, value: 1}
              - wait-serial: 'H=0 V=768 S=0'
              - set-control: {part-id: ldr, control: lux, value: 10}
              - wait-serial: 'L=853 D=1'
              - set-control: {part-id: ldr, control: lux, value: 100000}
              - wait-serial: 'L=8 D=0'
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "5000"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.hasSuffix("[analog] Scenario completed successfully\n"), "\(result.out)")
        #expect(!result.out.contains("not modelled"), "\(result.out)")
    }

    /// Wokwi's NTC temperature sensor: 10 kΩ NTC (beta 3950) under 10 kΩ,
    /// so Wokwi's own formula gives its temperature back (24 °C reads 523,
    /// 80 °C 115, -10 °C 873). It was ignored: OUT read 0, -273.15 °C.
    @Test func anNTCSensorGivesItsTemperature() throws {
        let folder = try projectFolder(SketchFixtures.analogParts, named: "ntc", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "attrs": {}},
                       {"type": "wokwi-ntc-temperature-sensor", "id": "ntc1", "attrs": {}}],
             "connections": [["ntc1:OUT", "uno:A3", "", []], ["ntc1:GND", "uno:GND.1", "", []], ["ntc1:VCC", "uno:5V", "", []]]}
            """, scenario: """
            name: ntc
            version: 1
            steps:
              - wait-serial: 'T=523'
              - set-control: {part-id: ntc1, control: temperature, value: 80}
              - wait-serial: 'T=115'
              - set-control: {part-id: ntc1, control: temperature, value: -10}
              - wait-serial: 'T=873'
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "5000"])
        #expect(result.code == 0, "\(result.err)")
        #expect(!result.err.contains("not modelled"), "\(result.err)")
        // The attr sets where it starts.
        let warm = try projectFolder(SketchFixtures.analogParts, named: "ntc-warm", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "attrs": {}},
                       {"type": "wokwi-ntc-temperature-sensor", "id": "ntc1", "attrs": {"temperature": "80"}}],
             "connections": [["ntc1:OUT", "uno:A3", "", []]]}
            """, scenario: "")
        defer { try? FileManager.default.removeItem(atPath: warm) }
        let started = try tiltsim.run(["wokwi", warm, "--expect-text", "T=115", "--timeout", "2000"])
        #expect(started.code == 0, "\(started.err)")
    }

    /// The Mega's A8–A15 (ADC8…ADC15, MUX5 set) read what is on them: a
    /// potentiometer at 300 on A8, an NTC sensor on A15 (24 °C: 523, then
    /// 80 °C: 115). simavr keeps eight input values, and every analogRead
    /// there read 0 (outside tester X).
    @Test func theMegasUpperAnalogInputsReadTheirParts() throws {
        let folder = try projectFolder(SketchFixtures.megaAnalog, named: "mega-analog", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [{"type": "wokwi-arduino-mega", "id": "mega", "attrs": {}},
                       {"type": "wokwi-potentiometer", "id": "pot1", "attrs": {"value": "300"}},
                       {"type": "wokwi-ntc-temperature-sensor", "id": "ntc1", "attrs": {}}],
             "connections": [["pot1:SIG", "mega:A8", "", []], ["ntc1:OUT", "mega:A15", "", []]]}
            """, scenario: """
            name: upper
            version: 1
            steps:
              - wait-serial: 'A0=0 A8=300 A15=523'
              - set-control: {part-id: ntc1, control: temperature, value: 80}
              - wait-serial: 'A0=0 A8=300 A15=115'
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "3000"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
    }

    /// More wires between the board's pins than the 16 nets tiltsim models:
    /// the line names the ones left out (it said only "the rest").
    @Test func wiresBeyondTheNetsTiltsimModelsAreNamed() throws {
        let pairs = stride(from: 22, to: 54, by: 2).map { "[\"mega:\($0)\", \"mega:\($0 + 1)\", \"\", []]" } + [#"["mega:2", "mega:3", "", []]"#]
        let folder = try projectFolder(SketchFixtures.megaAnalog, named: "many-wires", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [{"type": "wokwi-arduino-mega", "id": "mega", "attrs": {}}],
             "connections": [\(pairs.joined(separator: ", "))]}
            """, scenario: "")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--expect-text", "A0=", "--timeout", "500", "-q"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.contains("more wires between the board's pins than tiltsim models (16 nets of 8 pins): left out D2–D3\n"), "\(result.err)")
    }

    /// A pin follows every button on it: two to GND hold it low until both
    /// are released, and a released button lets go (a button to 5V under
    /// INPUT_PULLUP reads the pull-up again); before, a release drove the
    /// other level (another held button let go of, a pull-up overruled).
    @Test func aReleasedButtonLetsGoOfItsPin() throws {
        let folder = try projectFolder(SketchFixtures.buttonPort, named: "buttons", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [
               {"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-pushbutton", "id": "a", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-pushbutton", "id": "b", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-pushbutton", "id": "up", "top": 0, "left": 0, "attrs": {}}
             ],
             "connections": [
               ["a:1.l", "uno:2", "green", []], ["a:2.r", "uno:GND.1", "black", []],
               ["b:1.r", "uno:2", "green", []], ["b:2.l", "uno:GND.2", "black", []],
               ["up:1.l", "uno:2", "green", []], ["up:2.l", "uno:5V", "red", []]
             ]}
            """, scenario: """
            name: buttons
            version: 1
            steps:
              - wait-serial: 'D2=1'
              - set-control: {part-id: a, control: pressed, value: 1}
              - wait-serial: 'D2=0'
              - set-control: {part-id: b, control: pressed, value: 1}
              - set-control: {part-id: a, control: pressed, value: 0}
              - delay: 20ms
              - expect-pin: {part-id: uno, pin: '2', value: 0}
              - set-control: {part-id: b, control: pressed, value: 0}
              - wait-serial: 'D2=1'
              - set-control: {part-id: up, control: pressed, value: 1}
              - set-control: {part-id: up, control: pressed, value: 0}
              - delay: 20ms
              - expect-pin: {part-id: uno, pin: '2', value: 1}
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "2000"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("a released drives PD2 low") && result.out.contains("b released lets go of PD2"), "\(result.out)")
        // pressed is 0 or 1: a 2 or 0.5 was taken as a press.
        try "name: twice\nversion: 1\nsteps:\n  - set-control: {part-id: a, control: pressed, value: 2}\n"
            .write(toFile: folder + "/twice.yaml", atomically: true, encoding: .utf8)
        let twice = try tiltsim.run(["wokwi", folder, "--scenario", "twice.yaml", "--timeout", "100"])
        #expect(twice.code == 1 && twice.err.contains("set-control a: pressed 2 is neither 0 nor 1"), "\(twice.err)")
        // A pin the part lacks is named as a wire's is (it said "not wired to a pin of the Arduino Uno").
        try "name: leg\nversion: 1\nsteps:\n  - expect-pin: {part-id: a, pin: '3', value: 1}\n"
            .write(toFile: folder + "/leg.yaml", atomically: true, encoding: .utf8)
        let leg = try tiltsim.run(["wokwi", folder, "--scenario", "leg.yaml", "--timeout", "100"])
        #expect(leg.code == 1 && leg.err.contains("expect-pin: wokwi-pushbutton 'a' has no pin '3' (it has 1.l, 2.l, 1.r, 2.r)"), "\(leg.err)")
    }

    /// A resistor from a pin to 5V pulls an input without a pull-up high; a
    /// pin wired straight to 5V reads high; a pushbutton's legs on one side
    /// are one contact (2.l on GND puts 2.r's pin on GND). All three read as
    /// if nothing were there before.
    @Test func resistorsStrapsAndButtonLegsReachThePin() throws {
        func firstLine(_ connections: String) throws -> String {
            let folder = try projectFolder(SketchFixtures.analogParts, named: "pulls", diagram: """
                {"version": 1, "author": "test", "editor": "wokwi",
                 "parts": [
                   {"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}},
                   {"type": "wokwi-resistor", "id": "r1", "top": 0, "left": 0, "attrs": {"value": "10000"}},
                   {"type": "wokwi-pushbutton", "id": "btn", "top": 0, "left": 0, "attrs": {}}
                 ],
                 "connections": [\(connections)]}
                """, scenario: "name: line\nversion: 1\nsteps:\n  - wait-serial: \"\\n\"\n")  // the first line, whole
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let log = folder + "/serial.log"
            let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--serial-log-file", log])
            #expect(result.code == 0, "\(result.err)")
            return try String(contentsOfFile: log, encoding: .utf8).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        #expect(try firstLine(#"["r1:1", "uno:7", "green", []], ["r1:2", "uno:5V", "red", []]"#).contains(" D=1 T="))
        #expect(try firstLine(#"["uno:7", "uno:5V", "red", []]"#).contains(" D=1 T="))
        // 2.l on GND and 2.r on D2: one contact, so D2 is on GND whatever the button does (a real project's wiring).
        #expect(try firstLine(#"["btn:2.l", "uno:GND.1", "black", []], ["btn:2.r", "uno:2", "green", []]"#).contains(" S=0 "))
    }

    /// Wokwi's HC-SR04: a 10 µs TRIG pulse gives an ECHO pulse of 58.3 µs a
    /// centimetre (pulseIn / 58 is the distance, as Wokwi's example reads
    /// it); a shorter trigger starts nothing; the distance control moves the
    /// obstacle. It was ignored: pulseIn waited out its timeout and read 0.
    @Test func anUltrasonicRangerEchoesItsDistance() throws {
        let folder = try projectFolder(SketchFixtures.ranger, named: "ranger", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [
               {"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-hc-sr04", "id": "sonar", "top": 0, "left": 0, "attrs": {"distance": "100"}},
               {"type": "wokwi-servo", "id": "s1", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-buzzer", "id": "bz", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-servo", "id": "s2", "top": 0, "left": 0, "attrs": {}}
             ],
             "connections": [
               ["sonar:TRIG", "uno:3", "green", []], ["sonar:ECHO", "uno:2", "blue", []],
               ["sonar:GND", "uno:GND.1", "black", []], ["sonar:VCC", "uno:5V", "red", []]
             ]}
            """, scenario: """
            name: sonar
            version: 1
            steps:
              - wait-serial: 'short=0'
              - wait-serial: ' us=5'
              - set-control: {part-id: sonar, control: distance, value: 20}
              - wait-serial: ' us=11'
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/serial.log"
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "5000", "--serial-log-file", log])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.hasSuffix("[sonar] Scenario completed successfully\n"), "\(result.out)")
        // The parts it does not model, in one line, each type once.
        #expect(result.err.contains("diagram.json: not modelled by tiltsim, so ignored (its pins read as wires; a set-control or "
                                    + "take-screenshot naming one is refused): wokwi-servo 's1', 's2'; wokwi-buzzer 'bz'\n"), "\(result.err)")
        // The pulses: 100 cm is 5831 µs there and back at 343 m/s, 20 cm 1166. pulseIn counts
        // loop passes and misses the ones timer 0's interrupt takes (about 6 µs a millisecond, as
        // on a board: it reads 5795, "cm=99"), so within 1 %.
        let pulses = try String(contentsOfFile: log, encoding: .utf8).split(whereSeparator: \.isNewline)
            .compactMap { $0.hasPrefix("cm=") ? $0.split(separator: "us=").last.flatMap { Int($0) } : nil }
        let first = try #require(pulses.first), last = try #require(pulses.last)
        #expect(abs(first - 5831) < 58, "\(pulses)")
        #expect(abs(last - 1166) < 12, "\(pulses)")
    }

    /// A DHT22 answers a start signal of 0.8 ms or more with its 40 bits
    /// (humidity, temperature with its sign bit, checksum) as the sketch's own
    /// bit-by-bit reader decodes them; set-control changes the next reading.
    /// It was ignored ("not modelled"): every read timed out.
    @Test func aHumiditySensorAnswersWithItsValues() throws {
        let folder = try projectFolder(SketchFixtures.humidity, named: "humidity", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [
               {"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-dht22", "id": "dht", "top": 0, "left": 0, "attrs": {"temperature": "-12.3", "humidity": "5"}},
               {"type": "wokwi-dht22", "id": "loose", "top": 0, "left": 0, "attrs": {}}
             ],
             "connections": [
               ["dht:SDA", "uno:2", "green", []], ["dht:GND", "uno:GND.1", "black", []], ["dht:VCC", "uno:5V", "red", []]
             ]}
            """, scenario: """
            name: dht
            version: 1
            steps:
              - wait-serial: 'short=0'
              - wait-serial: 't=-12.3 h=5.0 sum=ok'
              - set-control: {part-id: dht, control: temperature, value: 80}
              - set-control: {part-id: dht, control: humidity, value: 99.9}
              - wait-serial: 't=80.0 h=99.9 sum=ok'
              - set-control: {part-id: dht, control: temperature, value: -0.04}
              - wait-serial: 't=0.0 h=99.9 sum=ok'
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "3000"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.hasSuffix("[dht] Scenario completed successfully\n"), "\(result.out)")
        #expect(result.err.contains("wokwi-dht22 'loose': SDA (its data line) is not wired to a pin: ignored"), "\(result.err)")
        #expect(!result.err.contains("not modelled"), "\(result.err)")

        let scenario = folder + "/hot.yaml"
        try "name: hot\nversion: 1\nsteps:\n  - set-control: {part-id: dht, control: temperature, value: 81}\n"
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        let refused = try tiltsim.run(["wokwi", folder, "--scenario", "hot.yaml"])
        #expect(refused.code == 1)
        #expect(refused.err.contains("set-control dht: temperature 81 is outside -40 to 80 °C"), "\(refused.err)")
    }

    /// An HX711 shifts out 420 counts a kilogram of its load, two's
    /// complement, ten readings a second; SCK held high powers it down and
    /// it converts afresh after (DT high at once). It was ignored: the sketch
    /// waited for DT to fall for ever.
    @Test func aLoadCellAmplifierShiftsOutItsLoad() throws {
        let folder = try projectFolder(SketchFixtures.loadCell, named: "load-cell", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [
               {"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-hx711", "id": "cell", "top": 0, "left": 0, "attrs": {"type": "5kg"}}
             ],
             "connections": [
               ["cell:DT", "uno:3", "blue", []], ["cell:SCK", "uno:2", "green", []],
               ["cell:GND", "uno:GND.1", "black", []], ["cell:VCC", "uno:5V", "red", []]
             ]}
            """, scenario: """
            name: cell
            version: 1
            steps:
              - wait-serial: 'woke ready=0'
              - wait-serial: 'raw=0'
              - set-control: {part-id: cell, control: load, value: 2.5}
              - wait-serial: 'raw=1050'
              - set-control: {part-id: cell, control: load, value: -2}
              - wait-serial: 'raw=-840'
              - set-control: {part-id: cell, control: load, value: 100000}
              - wait-serial: 'raw=8388607'
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "3000"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.hasSuffix("[cell] Scenario completed successfully\n"), "\(result.out)")
    }

    /// Two DS18B20s on one 1-Wire line answer a reset, are found by the ROM
    /// search (the line the AND of both), convert in 750 ms at 12 bits and
    /// give their scratchpads with valid CRCs; set-control moves one. They
    /// were ignored: no presence, "probes=0".
    @Test func thermometersOnOneLineAreFoundAndRead() throws {
        let folder = try projectFolder(SketchFixtures.thermometers, named: "thermometers", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [
               {"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-ds18b20", "id": "t1", "attrs": {"deviceID": "111111111111", "temperature": "-10.3"}},
               {"type": "wokwi-ds18b20", "id": "t2", "attrs": {"deviceID": "222222222222"}}
             ],
             "connections": [["t1:DQ", "uno:2", "green", []], ["t2:DQ", "uno:2", "green", []], ["t1:GND", "uno:GND.1", "black", []]]}
            """, scenario: """
            name: probes
            version: 1
            steps:
              - wait-serial: 'probes=2'
              - wait-serial: 'rom=28222222222222'
              - wait-serial: ' raw=352 crc=ok waited=75'
              - wait-serial: 'rom=28111111111111'
              - wait-serial: ' raw=-165 crc=ok'
              - set-control: {part-id: t1, control: temperature, value: 125}
              - wait-serial: 'rom=28111111111111'
              - wait-serial: ' raw=2000 crc=ok'
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "5000"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.hasSuffix("[probes] Scenario completed successfully\n"), "\(result.out)")
    }

    /// A slide switch joins its common pin to pin 1 (handle left, the
    /// default) or 3 (value "1"): a pin on the common reads GND through it or
    /// its pull-up. It was "not modelled": the pin read its pull-up either way.
    @Test(arguments: [("", 0), ("1", 1)])
    func aSlideSwitchJoinsItsCommonPinToOneSide(value: String, level: Int) throws {
        let folder = try projectFolder(SketchFixtures.buttonPort, named: "slide-\(level)", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [
               {"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-slide-switch", "id": "sw1", "top": 0, "left": 0, "attrs": {"value": "\(value)"}}
             ],
             "connections": [["sw1:1", "uno:GND.1", "black", []], ["sw1:2", "uno:2", "green", []]]}
            """, scenario: "name: slide\nversion: 1\nsteps:\n  - wait-serial: 'D2=\(level)'\n  - expect-pin: {part-id: sw1, name: '2', value: \(level)}\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "500"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(!result.out.contains("not modelled"), "\(result.out)")
    }

    /// Wokwi pauses the simulation at a wait-serial's match, so the next
    /// wait-serial sees the bytes right after it; a delay lets them go by.
    /// They were lost with the rest of the millisecond the match came in
    /// ("boot" then "echo" from one line timed out).
    @Test func waitSerialResumesRightAfterTheLastMatch() throws {
        let folder = try projectFolder(SketchFixtures.bootEcho, named: "resume", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}}], "connections": []}
            """, scenario: """
            name: resume
            version: 1
            steps:
              - wait-serial: 'boot'
              - wait-serial: '_echo'
              - wait-serial: '1.0'
              - wait-serial: 'ready'
              - wait-serial: 'tick 250'
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "1000"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.hasSuffix("[resume] Scenario completed successfully\n"), "\(result.out)")

        let delayed = folder + "/delayed.yaml"
        try "name: delayed\nversion: 1\nsteps:\n  - wait-serial: 'boot'\n  - delay: 10ms\n  - wait-serial: 'ready'\n"
            .write(toFile: delayed, atomically: true, encoding: .utf8)
        let late = try tiltsim.run(["wokwi", folder, "--scenario", "delayed.yaml", "--timeout", "600"])
        #expect(late.code == 42, "'ready' came during the delay: \(late.out)")
    }

    /// wokwi-cli's own scenario lines, "Executing step: NAME" for a named step
    /// and the closing one, show with -q too; a top-level key wokwi-cli ignores
    /// (a description) is noted, not refused. The name was dropped, -q hid
    /// both lines, and a description stopped the run.
    @Test func namedStepsAreAnnouncedAndScenarioLinesSurviveQuiet() throws {
        let folder = try projectFolder(SketchFixtures.bootEcho, named: "named", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}}], "connections": []}
            """, scenario: """
            name: named
            version: 1
            description: boots and ticks
            steps:
              - name: the banner
                wait-serial: 'ready'
              - wait-serial: 'tick 250'
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let loud = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "1000"])
        #expect(loud.code == 0, "\(loud.out)\(loud.err)")
        #expect(loud.err.contains("scenario.test.yaml: 'description' is not a scenario key (name, version, author, steps): ignored, as wokwi-cli does\n"), "\(loud.err)")
        #expect(loud.out.contains("Starting simulation...\n[named] Executing step: the banner\n"), "\(loud.out)")
        let quiet = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "1000", "-q"])
        #expect(quiet.code == 0, "\(quiet.out)\(quiet.err)")
        #expect(quiet.out.hasPrefix("[named] Executing step: the banner\nboot_echo 1.0 ready\r\n"), "\(quiet.out)")
        #expect(quiet.out.hasSuffix("tick 250\r\n[named] Scenario completed successfully\n"), "\(quiet.out)")
        #expect(!quiet.out.contains("serial matched") && !quiet.out.contains("Starting"), "\(quiet.out)")
    }

    /// What wokwi-cli refuses is refused here too, by name: a scenario name or
    /// a write-serial that YAML reads as a number, its --vcd-file and its
    /// other commands; two parts with one id are named (Wokwi's lint refuses
    /// them). All were taken silently or called an unknown option or folder.
    @Test func whatWokwiCliRefusesIsNamed() throws {
        let folder = try projectFolder(SketchFixtures.bootEcho, named: "refusals", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}},
                       {"type": "wokwi-led", "id": "led1", "attrs": {}}, {"type": "wokwi-led", "id": "led1", "attrs": {}}],
             "connections": []}
            """, scenario: "name: 5\nversion: 1\nsteps:\n  - wait-serial: 'ready'\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let numbered = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml"])
        #expect(numbered.code == 1 && numbered.err.contains("the scenario needs a name (text)"), "\(numbered.err)")
        #expect(numbered.err.contains("diagram.json: two parts have the id 'led1' (Wokwi's lint refuses it): tiltsim takes them as one part, "
                                      + "their wires joined; give each part its own id\n"), "\(numbered.err)")
        try "name: bytes\nversion: 1\nsteps:\n  - write-serial: 42\n".write(toFile: folder + "/bytes.yaml", atomically: true, encoding: .utf8)
        let bytes = try tiltsim.run(["wokwi", folder, "--scenario", "bytes.yaml"])
        #expect(bytes.code == 1 && bytes.err.contains(":4: write-serial takes text or a list of byte values"), "\(bytes.err)")
        let vcd = try tiltsim.run(["wokwi", folder, "--vcd-file", "trace.vcd"])
        #expect(vcd.code == 1 && vcd.err == "tiltsim: --vcd-file: tiltsim writes no logic analyzer trace (wokwi-cli's VCD file); leave it out\n", "\(vcd.err)")
        let lint = try tiltsim.run(["wokwi", "lint"])
        #expect(lint.code == 1 && lint.err.contains("lint: a wokwi-cli command tiltsim does not offer"), "\(lint.err)")
    }

    /// --scenario and --diagram-file are relative to the project, or absolute
    /// (wokwi-cli resolves them from the project): an absolute one was joined
    /// to the project's path and not found.
    @Test func absoluteScenarioAndDiagramPathsAreTakenAsTheyAre() throws {
        let folder = try projectFolder(SketchFixtures.bootEcho, named: "absolute", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}}], "connections": []}
            """, scenario: "name: absolute\nversion: 1\nsteps:\n  - wait-serial: 'ready'\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.moveItem(atPath: folder + "/diagram.json", toPath: folder + "/board.json")
        let result = try tiltsim.run(["wokwi", folder, "--scenario", folder + "/scenario.test.yaml", "--diagram-file", folder + "/board.json",
                                      "--timeout", "1000"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        let relative = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--diagram-file", "board.json", "--timeout", "1000"])
        #expect(relative.code == 0, "\(relative.out)\(relative.err)")
        let missing = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "1000"])
        #expect(missing.code == 1)
        #expect(missing.err.contains("diagram file not found: \(folder)/diagram.json; add one, or name it with --diagram-file"), "\(missing.err)")
    }

    /// TRIG and ECHO on one pin (NewPing's one-pin mode, its 8.9 µs trigger):
    /// one echo a ping, and the module's own echo does not trigger it again
    /// (it did, 64 edges in 100 ms; and the 8.9 µs trigger was ignored).
    @Test func anUltrasonicRangerOnOnePinEchoesOncePerPing() throws {
        let folder = try projectFolder(SketchFixtures.rangerOnePin, named: "ranger-one-pin", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [
               {"type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-hc-sr04", "id": "sonar", "top": 0, "left": 0, "attrs": {"distance": "50"}}
             ],
             "connections": [["sonar:TRIG", "uno:7", "green", []], ["sonar:ECHO", "uno:7", "blue", []]]}
            """, scenario: "name: one pin\nversion: 1\nsteps:\n  - wait-serial: 'cm=49 edges=0'\n  - wait-serial: 'cm=49 edges=0'\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "1000"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
    }

    /// Wiring as Wokwi's own examples and tutorials write it: the button to a
    /// `wokwi-gnd` symbol, the pot on the Nano's analog-only A6, the older
    /// `wokwi-ssd1306` with DATA/CLK and a decimal address, and a typo. The
    /// button holds D2 low while the sketch writes D4 on the same port all the
    /// time (simavr's pull-up won at every PORTD write: the press was lost).
    @Test func aButtonOnAGroundSymbolHoldsItsPinWhileTheSketchWritesThePort() throws {
        let folder = try projectFolder(SketchFixtures.buttonPort, named: "button-port", diagram: """
            {"version": 1, "author": "test", "editor": "wokwi",
             "parts": [
               {"type": "wokwi-arduino-nano", "id": "nano", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-pushbutton", "id": "btn1", "top": 0, "left": 0, "attrs": {"color": "green"}},
               {"type": "wokwi-gnd", "id": "gnd1", "top": 0, "left": 0, "attrs": {}},
               {"type": "wokwi-led", "id": "led1", "top": 0, "left": 0, "attrs": {"color": "red"}},
               {"type": "wokwi-potentiometer", "id": "pot1", "top": 0, "left": 0, "attrs": {"value": "700"}},
               {"type": "wokwi-ssd1306", "id": "oled1", "top": 0, "left": 0, "attrs": {"i2cAddress": "61"}}
             ],
             "connections": [
               ["btn1:1.l", "nano:2", "green", []], ["btn1:2.l", "gnd1:GND", "black", []],
               ["led1:A", "nano:4", "red", []], ["led1:C", "nano:GND.1", "black", []],
               ["pot1:SIG", "nano:A6", "green", []], ["pot1:GND", "nano:GND.2", "black", []], ["pot1:VCC", "nano:5V", "red", []],
               ["oled1:DATA", "nano:A4", "blue", []], ["oled1:CLK", "nano:A5", "blue", []],
               ["led1:K", "nano:GND.2", "black", []], ["led2:A", "nano:5", "red", []],
               ["nano:6", "", "red", []], ["nano:7", "led1", "red", []]
             ]}
            """, scenario: """
            name: button
            version: 1
            steps:
              - wait-serial: 'A6=700'
              - set-control: {part-id: btn1, control: pressed, value: 1}
              - wait-serial: 'D2=0'
              - delay: 50ms
              - expect-pin: {part-id: btn1, name: 2.l, value: 0}
              - set-control: {part-id: btn1, control: pressed, value: 0}
              - wait-serial: 'D2=1'
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "scenario.test.yaml", "--timeout", "5000"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("[button] 0.") && result.out.contains("btn1:2.l (GND) is 0"), "\(result.out)")
        #expect(result.out.hasSuffix("[button] Scenario completed successfully\n"), "\(result.out)")
        // The display on DATA/CLK at 61 (0x3D) is on the bus; the typos are named, one line each.
        #expect(!result.out.contains("oled1") && !result.err.contains("oled1"), "\(result.out)\n\(result.err)")
        #expect(result.err.contains("diagram.json: wokwi-led 'led1' has no pin 'K' (it has A, C): its wire is ignored\n"), "\(result.err)")
        #expect(result.err.contains("diagram.json: a wire to led2:A, and no part has the id 'led2': ignored\n"), "\(result.err)")
        // Ends with no "part:" (a hand edit) were dropped without a word.
        #expect(result.err.contains("diagram.json: a wire with an empty end: ignored; give both ends as \"part:PIN\"\n"), "\(result.err)")
        #expect(result.err.contains("diagram.json: a wire to 'led1', which names no pin (\"part:PIN\", e.g. \"led1:A\"): ignored\n"), "\(result.err)")
        let screenshot = folder + "/shot.png"
        let shot = try tiltsim.run(["wokwi", folder, "--timeout", "200", "--screenshot-part", "oled1", "--screenshot-time", "100",
                                    "--screenshot-file", screenshot])
        #expect(shot.code == 42, "\(shot.err)")
        #expect(FileManager.default.fileExists(atPath: screenshot), "the wokwi-ssd1306 is the display a screenshot takes")
    }

    @Test func aFailedStepExitsOneAndNamesThePin() throws {
        let folder = try project("nano-tilt")
        let scenario = folder + "/wrong-pin.tmp.yaml"
        try """
            name: wrong pin
            version: 1
            steps:
              - wait-serial: 'az=16384'
              - expect-pin: {part-id: led1, name: A, value: 1}
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "wrong-pin.tmp.yaml", "-q"])
        #expect(result.code == 1)
        #expect(result.err.contains("led1:A (PB5) was 0, expected 1"), "\(result.err)")
    }

    @Test func aScreenshotThatDiffersFailsAndAnOffColourReferenceIsRefused() throws {
        let folder = try project("nano-tilt")
        let dark = folder + "/dark.tmp.png", grey = folder + "/grey.tmp.png", scenario = folder + "/dark.tmp.yaml"
        try Data(PNGEncoder.encodeRGBA(Screen())).write(to: URL(fileURLWithPath: dark))
        try Data(PNGEncoder.encode(Screen(bytes: [1] + [UInt8](repeating: 0, count: Screen.byteCount - 1))!, scale: 1, lit: 0x80)).write(to: URL(fileURLWithPath: grey))
        defer { for path in [dark, grey, scenario, folder + "/dark.tmp.actual.png"] { try? FileManager.default.removeItem(atPath: path) } }
        for (reference, code) in [("dark.tmp.png", 1), ("grey.tmp.png", 1)] {
            try "name: dark\nversion: 1\nsteps:\n  - wait-serial: 'az='\n  - delay: 50ms\n  - take-screenshot: {part-id: oled1, compare-with: \(reference)}\n"
                .write(toFile: scenario, atomically: true, encoding: .utf8)
            let result = try tiltsim.run(["wokwi", folder, "--scenario", "dark.tmp.yaml", "-q"])
            #expect(result.code == Int32(code))
            if reference == "dark.tmp.png" {
                // The frame and the bubble are lit: 2 × 128 + 2 × 62 + 64 pixels.
                #expect(result.err.contains("differs from \(dark) in 444 of 8192 pixels"), "\(result.err)")
                #expect(FileManager.default.fileExists(atPath: folder + "/dark.tmp.actual.png"))
            } else {
                #expect(result.err.contains("pixel x,y=(0,0) is neither lit (255,255,255,255) nor dark (0,0,0,255)"), "\(result.err)")
            }
        }
    }

    /// compare-with reads its file when the step runs, as wokwi-cli does, so
    /// a scenario can compare with a screenshot it saved itself (it was read
    /// before the run: the old file, or none at all, was compared).
    @Test func aScreenshotSavedByTheScenarioIsComparedAsSaved() throws {
        let folder = try project("nano-tilt")
        let old = folder + "/old.tmp.png", fresh = folder + "/fresh.tmp.png", scenario = folder + "/again.tmp.yaml"
        try Data(PNGEncoder.encodeRGBA(Screen())).write(to: URL(fileURLWithPath: old))  // dark: not what the sketch shows
        defer { for path in [old, fresh, scenario, folder + "/old.tmp.actual.png"] { try? FileManager.default.removeItem(atPath: path) } }
        try """
            name: again
            version: 1
            steps:
              - wait-serial: 'az='
              - delay: 50ms
              - take-screenshot: {part-id: oled1, save-to: old.tmp.png}
              - delay: 10ms
              - take-screenshot: {part-id: oled1, compare-with: old.tmp.png}
              - take-screenshot: {part-id: oled1, save-to: fresh.tmp.png, compare-with: fresh.tmp.png}
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let result = try tiltsim.run(["wokwi", folder, "--scenario", "again.tmp.yaml"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.hasSuffix("[again] Scenario completed successfully\n"), "\(result.out)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == Data(contentsOf: URL(fileURLWithPath: fresh)), "both hold the screen at rest")
    }

    /// --expect-text with --screenshot-time: the run passes on the text and
    /// after the screenshot, as wokwi-cli awaits it (the screenshot alone
    /// passed a run whose text had not come yet, and a text before the
    /// screenshot ended the run without it).
    @Test func expectTextAwaitsTheScreenshotAndTheScreenshotAwaitsTheText() throws {
        let folder = try project("nano-tilt")
        let shot = temporary("shot.png")
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let after = try tiltsim.run(["wokwi", folder, "--expect-text", "az=16384", "--screenshot-part", "oled1",
                                     "--screenshot-time", "300", "--screenshot-file", shot, "-q"])
        #expect(after.code == 0, "\(after.err)")
        #expect(FileManager.default.fileExists(atPath: shot), "the text came at 0.1 s, the screenshot at 0.3 s")
        let before = try tiltsim.run(["wokwi", folder, "--expect-text", "az=16384", "--screenshot-part", "oled1",
                                      "--screenshot-time", "20", "--screenshot-file", shot])
        #expect(before.code == 0, "\(before.err)")
        #expect(before.out.hasSuffix("Expected text found: \"az=16384\"\nTEST PASSED.\n"), "\(before.out)")
        let never = try tiltsim.run(["wokwi", folder, "--expect-text", "never printed", "--screenshot-part", "oled1",
                                     "--screenshot-time", "20", "--screenshot-file", shot, "--timeout", "300", "-q"])
        #expect(never.code == 42)
    }

    /// `$serialMonitor` wired to the Mega's Serial2 pins (Wokwi's serial
    /// monitor guide) moves the serial output and input there; without the
    /// wires it is Serial; on a SoftwareSerial's pins it is refused (the
    /// wires were ignored: Serial2's text never came, and nothing said why).
    @Test func theSerialMonitorsWiresChooseTheMegasUART() throws {
        let sketch = try SketchFixtures.serial2Mega.get()
        let folder = temporary("serial2")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func diagram(_ wires: String) throws {
            try """
                {"version": 1, "parts": [{"type": "wokwi-arduino-mega", "id": "mega", "attrs": {}}],
                 "connections": [\(wires)]}
                """.write(toFile: folder + "/diagram.json", atomically: true, encoding: .utf8)
        }
        try "name: echo\nversion: 1\nsteps:\n  - wait-serial: 'hello from Serial2'\n  - write-serial: \"hi\\n\"\n  - wait-serial: 'echo: hi'\n"
            .write(toFile: folder + "/echo.yaml", atomically: true, encoding: .utf8)

        try diagram(#"["mega:17", "$serialMonitor:TX", ""], ["mega:16", "$serialMonitor:RX", ""]"#)
        let wired = try tiltsim.run(["wokwi", folder, "--elf", sketch.hex, "--scenario", "echo.yaml", "--timeout", "2000"])
        #expect(wired.code == 0, "\(wired.out)\(wired.err)")
        #expect(!wired.out.contains("debug on Serial"), "\(wired.out)")

        try diagram("")
        let bare = try tiltsim.run(["wokwi", folder, "--elf", sketch.hex, "--expect-text", "hello from Serial2", "--timeout", "500"])
        #expect(bare.code == 42)
        #expect(bare.out.contains("debug on Serial"), "\(bare.out)")

        try diagram(#"["mega:10", "$serialMonitor:RX", ""]"#)
        let software = try tiltsim.run(["wokwi", folder, "--elf", sketch.hex, "--timeout", "500"])
        #expect(software.code == 1)
        #expect(software.err.contains("$serialMonitor:RX is wired to mega:10, which is no UART's TX; tiltsim shows a hardware UART (Serial TX 1 RX 0, Serial1 TX 18 RX 19, Serial2 TX 16 RX 17, Serial3 TX 14 RX 15), not a SoftwareSerial"), "\(software.err)")
    }

    /// The Uno's `frequency` attr is the chip's clock, as on Wokwi: at 8 MHz
    /// a sketch built for 16 its millis() run at half speed (the attr was
    /// ignored); a clock the chip cannot run is refused.
    @Test func theUnosFrequencyAttrIsItsClock() throws {
        let sketch = try SketchFixtures.bootEcho.get()
        let folder = temporary("clock")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func run(_ frequency: String) throws -> (code: Int32, out: String, err: String) {
            try #"{"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "attrs": {"frequency": "\#(frequency)"}}], "connections": []}"#
                .write(toFile: folder + "/diagram.json", atomically: true, encoding: .utf8)
            // boot_echo prints "tick 250" at 250 ms of millis().
            return try tiltsim.run(["wokwi", folder, "--elf", sketch.hex, "--expect-text", "tick 250", "--timeout", "400", "-q"])
        }
        #expect(try run("16m").code == 0)
        #expect(try run("20m").code == 0)
        #expect(try run("8m").code == 42)
        let refused = try run("40m")
        #expect(refused.code == 1)
        #expect(refused.err.contains("frequency \"40m\" is not a clock tiltsim runs; give 1m to 20m"), "\(refused.err)")
    }

    @Test func expectAndFailTextAndTimeoutExitAsWokwiCliDoes() throws {
        let folder = try project("nano-tilt")
        let passed = try tiltsim.run(["wokwi", folder, "--expect-text", "az=16384", "--fail-text", ""])
        #expect(passed.code == 0, "\(passed.err)")
        #expect(passed.out.hasSuffix("\n\nExpected text found: \"az=16384\"\nTEST PASSED.\n"))
        let failed = try tiltsim.run(["wokwi", folder, "--expect-text", "az=16384", "--fail-text", "MPU-6050 found", "-q"])
        #expect(failed.code == 1)
        #expect(failed.err.hasSuffix("Error: Unexpected text found: \"MPU-6050 found\"\nTEST FAILED.\n"))
        let never = try tiltsim.run(["wokwi", folder, "--expect-text", "never printed", "--timeout", "300", "--timeout-exit-code", "7", "-q"])
        #expect(never.code == 7)
        #expect(never.err == "\nTimeout: simulation did not finish in 300ms\n")
        let wrapped = try tiltsim.run(["wokwi", folder, "--timeout-exit-code", "300"])
        #expect(wrapped.code == 1 && wrapped.err.contains("--timeout-exit-code 300: an exit code is 0 to 255"), "it exited 44, 300 wrapped: \(wrapped.err)")
        let word = try tiltsim.run(["wokwi", folder, "--timeout-exit-code", "abc"])
        #expect(word.err.contains("--timeout-exit-code abc: give a whole number, e.g. --timeout-exit-code 42"), "not 30000, refused: \(word.err)")
        // Empty is unset, as for every other option (wokwi-ci-action's unset inputs): 300 ms, then the default 42.
        let unset = try tiltsim.run(["wokwi", folder, "--expect-text", "never printed", "--timeout", "300", "--timeout-exit-code", "", "-q"])
        #expect(unset.code == 42, "\(unset.err)")
        let unsetTimeout = try tiltsim.run(["wokwi", folder, "--expect-text", "az=16384", "--timeout", "", "-q"])
        #expect(unsetTimeout.code == 0, "the default 30 s: \(unsetTimeout.err)")
        let nothing = try tiltsim.run(["wokwi", folder, "--timeout", "250", "-q"])
        #expect(nothing.code == 42)
        #expect(nothing.out == "tilt_bubble: MPU-6050 found\r\npot=700\r\nax=0 ay=0 az=16384\r\nax=0 ay=0 az=16384\r\n")
    }

    /// `--interactive` with a stdin that cannot be read (a folder: `< /`)
    /// runs as one with nothing typed; reading it trapped (exit 132).
    @Test func anInteractiveRunWhoseStdinCannotBeReadRunsOn() throws {
        let folder = try project("nano-tilt")
        let result = try tiltsim.run(["-c", "exec \"$0\" \"$@\" < /", TiltsimCommandTests.products.appendingPathComponent("tiltsim").path,
                                      "wokwi", folder, "--interactive", "--timeout", "100", "-q"], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.code == 42, "\(result.err)")
        #expect(result.err == "\nTimeout: simulation did not finish in 100ms\n", "\(result.err)")
    }

    @Test func aScreenshotAtATimeIsAWokwiRGBAPNG() throws {
        let folder = try project("nano-tilt")
        let shot = temporary("shot.png")
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let result = try tiltsim.run(["wokwi", folder, "--screenshot-part", "oled1", "--screenshot-time", "250", "--screenshot-file", shot,
                                      "--timeout", "300", "-q"])
        #expect(result.code == 42, "\(result.err)")
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        // IHDR: 128 × 64, 8 bits, colour type 6 (RGBA).
        #expect(Array(png[16..<26]) == [0, 0, 0, 128, 0, 0, 0, 64, 8, 6])
    }

    @Test func theUnoRunsOurFirmware() throws {
        _ = try BuiltFirmware.tiltserial()
        let folder = try project("uno-tiltserial")
        let log = temporary("uno.log")
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try tiltsim.run(["wokwi", folder, "--timeout", "500", "--serial-log-file", log, "-q"])
        #expect(result.code == 42)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        #expect(bytes.count > 100, "the firmware streams frames: \(bytes.count) bytes")
    }

    @Test func theMegaRunsTheSameSketchWithItsBusOnPins20And21() throws {
        let folder = try project("mega-tilt")
        for _ in 0..<2 {
            let result = try tiltsim.run(["wokwi", folder, "--scenario", "tilted.test.yaml"])
            #expect(result.code == 0, "\(result.err)")
            // The diagram's attrs are the sensor's initial state, read back exactly; the LED is on pin 13 = PB7.
            #expect(result.out.contains("tilt_bubble: MPU-6050 found\r\npot=0\r\nax=0 ay=-8192 az=14336\r\n[Mega starts tilted]"), "\(result.out)")
            #expect(result.out.contains("led1:A (PB7) is 1"))
            #expect(result.out.hasSuffix("[Mega starts tilted] Scenario completed successfully\n"))
        }
    }

    @Test func refusalsNameTheFileAndTheFix() throws {
        let folder = temporary("project")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missingToml = try tiltsim.run(["wokwi", folder])
        #expect(missingToml.code == 1)
        #expect(missingToml.err.contains("wokwi.toml not found"))

        try "[wokwi]\nversion = 1\nfirmware = 'x.hex'\n\n[[chip]]\nname = 'c'\nbinary = 'c.wasm'\n".write(toFile: folder + "/wokwi.toml", atomically: true, encoding: .utf8)
        try #"{"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno"}, {"type": "wokwi-mpu6050", "id": "imu"}], "connections": []}"#
            .write(toFile: folder + "/diagram.json", atomically: true, encoding: .utf8)
        let chip = try tiltsim.run(["wokwi", folder])
        #expect(chip.code == 1)
        #expect(chip.err.contains(":5: [[chip]] custom chips are not supported"), "\(chip.err)")

        try "[wokwi]\nversion = 1\nfirmware = 'x.hex'\ngdbServerPort = 3333\n".write(toFile: folder + "/wokwi.toml", atomically: true, encoding: .utf8)
        let firmware = try tiltsim.run(["wokwi", folder])
        #expect(firmware.code == 1)
        #expect(firmware.err.contains("gdbServerPort is not modelled by tiltsim: ignored"))
        #expect(firmware.err.contains("firmware file not found: \(folder)/x.hex"))

        let echo = try SketchFixtures.bootEcho.get()
        let unwired = try tiltsim.run(["wokwi", folder, "--elf", echo.elf, "--timeout", "100", "-q"])
        #expect(unwired.code == 42)
        #expect(unwired.err.contains("wokwi-mpu6050 'imu': SDA/SCL are not wired to the Arduino Uno's bus (A4/A5): absent"),
                "on stderr, with -q too (a CI job's -q hid it): \(unwired.err)")

        // A sketch for another chip: the fix is the diagram's board part, not tiltsim's --board.
        let mega = try project("mega-tilt") + "/build/tilt_bubble.elf"
        let wrongChip = try tiltsim.run(["wokwi", folder, "--elf", mega])
        #expect(wrongChip.code == 1)
        #expect(wrongChip.err.contains("\(mega) is built for an ATmega2560, but diagram.json's board is a wokwi-arduino-uno (ATmega328P): make diagram.json's board a wokwi-arduino-mega, or build the sketch for the Arduino Uno"), "\(wrongChip.err)")
        let leonardo = try SketchFixtures.intPinLeonardo.get().hex
        let noPart = try tiltsim.run(["wokwi", folder, "--elf", leonardo])
        #expect(noPart.code == 1)
        #expect(noPart.err.contains("is built for an ATmega32U4, but diagram.json's board is a wokwi-arduino-uno (ATmega328P): Wokwi has no board with it; build the sketch for the Arduino Uno"), "\(noPart.err)")

        try "name: bad\nversion: 1\nsteps:\n  - delay: 10ms\n  - wiggle: 3\n".write(toFile: folder + "/bad.yaml", atomically: true, encoding: .utf8)
        let unknown = try tiltsim.run(["wokwi", folder, "--elf", echo.elf, "--scenario", "bad.yaml"])
        #expect(unknown.code == 1)
        #expect(unknown.err.contains("bad.yaml:5: unknown step key 'wiggle'"), "\(unknown.err)")
    }
}
