import Foundation
import Testing
import TiltCore
import TiltDisplay
@testable import BoardEmulator

/// `tiltsim run`'s engine in-process: fixture sketches of our own, checked in
/// simulated time (no wall clock anywhere).
@Suite(.serialized) struct SketchRunTests {
    struct Record {
        var serial: [UInt8] = []
        var screens: [(String, Screen, UInt64)] = []
        var notes: [(String, UInt64)] = []
        var mismatches: [String] = []
        var reports: [USBReport] = []
    }

    func run(_ firmware: String, _ plan: RunPlan, motion: any MotionSource = ConstantMotionSource.faceUp,
             board: ArduinoBoard = .uno, supplyMillivolts: UInt32? = nil) throws -> (RunOutcome, Record, UInt64) {
        var configuration = AVRMachine.Configuration(firmwarePath: firmware, motionSource: motion)
        configuration.configure(for: board)
        if let supplyMillivolts { configuration.supplyMillivolts = supplyMillivolts }
        let machine = try AVRMachine(configuration)
        var record = Record()
        let run = SketchRun(machine: machine, plan: plan)
        let outcome = run.run { event in
            switch event {
            case .serial(let bytes): record.serial += bytes
            case .screen(let name, let screen, _, let micros): record.screens.append((name, screen, micros))
            case .screenMismatch(let name, _, _, _): record.mismatches.append(name)
            case .note(let text, let micros), .caveat(let text, let micros): record.notes.append((text, micros))
            case .stepBegins(let name, let micros): record.notes.append(("step " + name, micros))
            case .usbReport(let report): record.reports.append(report)
            }
        }
        return (outcome, record, run.nowMicros)
    }

    static let tour = Motion(.script(Scenarios.tour), noise: SensorNoise(sampleRate: 100, seed: 7))

    @Test func theHexTheIDEExportsRunsLikeTheELF() throws {
        let sketch = try SketchFixtures.bootEcho.get()
        let plan = RunPlan(timeoutMicros: 1_000_000)
        let (elfOutcome, elf, _) = try run(sketch.elf, plan)
        let (hexOutcome, hex, _) = try run(sketch.hex, plan)
        #expect(elfOutcome == .passed && hexOutcome == .passed)
        let text = String(decoding: hex.serial, as: UTF8.self)
        #expect(text.hasPrefix("boot_echo 1.0 ready\r\ntick 250\r\n"))
        #expect(text.contains("tick 750\r\n"))
        #expect(hex.serial == elf.serial)
    }

    /// Hardware/sketch.mk's LIBS: a library laid out as the IDE keeps them (src/,
    /// a C file a folder down; examples/ and test/ hold files that stop a build
    /// that takes them), and SPI from the core.
    @Test func aSketchBuiltWithItsLibrariesRuns() throws {
        let sketch = try SketchFixtures.libUser.get()
        let (outcome, record, _) = try run(sketch.hex, RunPlan(timeoutMicros: 1_000_000, steps: [
            .waitSerial(pattern: "^SPI ", timeoutMicros: nil),
        ]))
        #expect(outcome == .passed)
        // SPI.begin() as master: SPE and MSTR set (0x50).
        #expect(String(decoding: record.serial, as: UTF8.self) == "hello from TiltGreeting 42\r\nSPI 50\r\n")
    }

    /// A byte takes its frame's bit times, as on the chip: ten at 8N1, eleven
    /// with a parity bit (simavr 1.6 counted eleven for both: Serial 10 %
    /// slow at every baud rate). The sketch times 100 bytes with micros().
    @Test func aSerialByteTakesItsFramesBitTimes() throws {
        let sketch = try SketchFixtures.uartTime.get()
        let (outcome, record, _) = try run(sketch.elf, RunPlan(timeoutMicros: 1_000_000, steps: [
            .waitSerial(pattern: "8E1 100 bytes us=[0-9]+$", timeoutMicros: nil),
        ]))
        #expect(outcome == .passed)
        let text = String(decoding: record.serial, as: UTF8.self)
        func took(_ frame: String) -> Double? {
            guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.contains("\(frame) 100 bytes us=") }) else { return nil }
            return Double(line.split(separator: "=").last!.trimmingCharacters(in: .whitespaces))
        }
        let bitMicros = 1e6 / 9600
        let plain = try #require(took("8N1")), parity = try #require(took("8E1"))
        #expect(abs(plain / (100 * 10 * bitMicros) - 1) < 0.005, "8N1: \(plain) µs for 100 bytes")
        #expect(abs(parity / (100 * 11 * bitMicros) - 1) < 0.005, "8E1: \(parity) µs for 100 bytes")
    }

    /// A fixture's "name VALUE" (or "name=VALUE") lines as numbers by name.
    /// Runs a fixture that prints "name<separator>value" lines and then
    /// "done"; its figures, after checking it got there.
    func figuresUntilDone(_ fixture: Result<SketchFixtures.Built, AVRTestFailure>, board: ArduinoBoard = .uno,
                          timeoutMicros: UInt64 = 1_000_000, separator: Character = "=") throws -> [String: Double] {
        let (outcome, record, _) = try run(try fixture.get().elf, RunPlan(timeoutMicros: timeoutMicros, steps: [
            .waitSerial(pattern: "^done$", timeoutMicros: nil),
        ]), board: board)
        #expect(outcome == .passed, "\(String(decoding: record.serial, as: UTF8.self))")
        return Self.figures(record.serial, separator: separator)
    }

    static func figures(_ serial: [UInt8], separator: Character) -> [String: Double] {
        var figures: [String: Double] = [:]
        for line in String(decoding: serial, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: separator)
            if parts.count == 2, let n = Double(parts[1]) { figures[String(parts[0])] = n }
        }
        return figures
    }

    /// Phase correct and phase and frequency correct PWM count up to TOP and
    /// back down: an overflow every 2·TOP ticks (simavr 1.6 counted TOP + 1,
    /// so TimerOne's callback came twice as often; and for the modes it has no
    /// entry for, Timer2's as init() leaves it among them, one every 64
    /// cycles). The sketch counts overflow interrupts for a second of millis().
    @Test func dualSlopeTimerModesOverflowAtTheChipsRate() throws {
        let counts = try figuresUntilDone(SketchFixtures.timerSlopes, timeoutMicros: 8_000_000, separator: " ")
        let expected: [String: Double] = [
            "t1m8": 16e6 / (2 * 8000), "t1m10": 16e6 / (2 * 8000), "t1m1": 16e6 / 64 / 510,
            "t2m1": 16e6 / 64 / 510, "t2m5": 16e6 / 64 / 248, "t1m14": 16e6 / 16000,
        ]
        for (name, rate) in expected.sorted(by: { $0.key < $1.key }) {
            let count = try #require(counts[name], "\(name) missing from \(counts)")
            #expect(abs(count - rate) <= 2, "\(name): \(count) overflows in a second, the chip \(rate)")
        }
    }

    /// INT0 at low level comes while the line is low and the interrupt
    /// enabled, also when the line was low first (the sleep-until-INT
    /// pattern): the ISR runs at once and again after each return until it
    /// detaches itself; with the line let go it does not run at all. INTF0
    /// reads 0 throughout, in the ISR too, as the chip keeps it at low level.
    @Test func aLowLevelInterruptComesWhileTheLineIsLow() throws {
        let sketch = try SketchFixtures.intLevel.get()
        let (outcome, record, _) = try run(sketch.elf, RunPlan(timeoutMicros: 2_000_000, steps: [
            .waitSerial(pattern: "^ready$", timeoutMicros: nil),
            .wait(micros: 5_000),
            .drivePin(.d2, high: false, label: "test"),
            .waitSerial(pattern: "^calls ", timeoutMicros: nil),
            .drivePin(.d2, high: true, label: "test"),
            .waitSerial(pattern: "^high calls ", timeoutMicros: nil),
        ]))
        #expect(outcome == .passed)
        let text = String(decoding: record.serial, as: UTF8.self)
        #expect(text.contains("\ncalls 100\r\n"), "\(text)")
        #expect(text.contains("\nflags 0\r\n"), "\(text)")
        #expect(text.contains("\nhigh calls 0\r\n"), "\(text)")
    }

    /// Power-down under INT0 edges it cannot see: each sleep lasts until the
    /// watchdog, and INT0's handler never runs. The dropped edges had filled
    /// simavr's pending fifo (a clear leaves its entry), the watchdog's
    /// interrupt was lost in it, and every sleep from the third on ended at
    /// once (20 sleeps in 1 s, the watchdog's handler never run; a tester's).
    @Test func powerDownIgnoresEdgesAndWakesOnTheWatchdog() throws {
        let values = try figuresUntilDone(SketchFixtures.sleepEdges, timeoutMicros: 5_000_000)
        #expect(values["watchdog_calls"] == 8 && values["int0_calls"] == 0, "\(values)")
    }

    /// After SEI and after RETI the chip runs one main-program instruction
    /// before a pending interrupt: `sei; nop; cli` serves one, and 200 NOPs
    /// under INT0 held at low level let 200 handlers through. simavr 1.6 ran
    /// two instructions (its I flag's edge delay), so none and 100.
    @Test func oneInstructionRunsAfterSEIAndRETIBeforeAPendingInterrupt() throws {
        let values = try figuresUntilDone(SketchFixtures.seiWindow)
        #expect(values["sei_nop_cli"] == 1, "\(values)")
        let calls = try #require(values["isr_per_200_nops"], "\(values)")
        #expect((199...201).contains(calls), "\(calls) handlers between 200 NOPs")
    }

    /// The ADC's auto trigger on Timer1's compare B: a conversion each time
    /// OCF1B rises (100 in 100 ms) while something clears it; once when
    /// nothing does. simavr 1.6 never converted ("unimplemented auto trigger").
    @Test func theADCStartsOnATimersFlag() throws {
        let values = try figuresUntilDone(SketchFixtures.adcTrigger, timeoutMicros: 2_000_000)
        for name in ["with_isr", "cleared_by_one"] {
            let n = try #require(values[name], "\(values)")
            #expect((99...101).contains(n), "\(name): \(n) conversions in 100 ms")
        }
        #expect(values["never_cleared"] == 1, "\(values)")
    }

    /// An SPI byte takes its 8 SCK periods: at 8 MHz 1 µs (with the core's
    /// loop about 1.5–2 µs a transfer), at 125 kHz 64 µs; simavr took 100 µs
    /// for any byte. SPIE's interrupt comes when the byte is done, not before.
    @Test func spiBytesTakeTheirClocksTime() throws {
        let values = try figuresUntilDone(SketchFixtures.spiTime)
        let fast = try #require(values["fast_200_us"]), slow = try #require(values["slow_200_us"])
        #expect((200...500).contains(fast), "200 bytes at 8 MHz: \(fast) µs")
        #expect((12_800...14_000).contains(slow), "200 bytes at 125 kHz: \(slow) µs")
        #expect(values["spie_calls_at_4us"] == 0 && values["spie_calls_at_14us"] == 1, "\(values)")
    }

    /// The serial line idles high: D0 read before Serial.begin is HIGH on an
    /// Uno and a Mega (their USB-serial bridge drives it through 1 kΩ); it read 0.
    @Test(arguments: [ArduinoBoard.uno, .mega])
    func theReceivePinIdlesHigh(board: ArduinoBoard) throws {
        let values = try figuresUntilDone(board == .mega ? SketchFixtures.rxIdleMega : SketchFixtures.rxIdle, board: board)
        #expect(values["d0"] == 1, "\(values)")
    }

    /// The interrupt flags a written one clears, as on the chip: simavr 1.6
    /// stored the one (the flag set: a sketch polling EIFR saw an edge on
    /// every poll) or kept ADIF (a loop waiting on it waited once); a flag
    /// cleared while its interrupt waits for sei cancels it; SBI and CBI on
    /// EIFR touch only their own bit; a pin made an output at the level it
    /// read raises no pin-change interrupt, each change one.
    @Test func interruptFlagsClearOnAWrittenOne() throws {
        let values = try figuresUntilDone(SketchFixtures.intFlags)
        let chip: [String: Int] = [
            "eifr_after_clear": 0, "polled_edges": 50, "eifr_both": 3, "eifr_after_cbi": 3, "eifr_after_sbi": 2,
            "int1_calls_cleared": 0, "int1_calls_edge": 1, "int0_low_calls": 100,
            "pcint_after_output": 0, "pcint_after_high": 1, "pcint_after_low": 2, "pcifr_masked_change": 1, "pcifr_after_clear": 0,
            "adif_done": 1, "adif_after_clear": 0, "aci_after_clear": 0,
            "tifr1_set": 7, "tifr1_after_zero": 7, "tifr1_after_tov1": 6, "tifr1_after_sbi": 4,
            "wdif_timeout": 1, "wdif_after_clear": 0, "wdt_calls_cleared": 0, "wdt_calls_timeout": 1,
            // Set while masked, served once unmasked (the call clears a timer's flag).
            "tov1_masked": 1, "tov1_calls_unmasked": 1, "tov1_after_call": 0, "int1_calls_unmasked": 1,
            "pcint_calls_unmasked": 1, "adc_calls_unmasked": 1,
        ]
        for (name, value) in chip.sorted(by: { $0.key < $1.key }) {
            #expect(values[name] == Double(value), "\(name): \(values[name].map { String($0) } ?? "missing"), the chip \(value)")
        }
        // Ten conversions at 125 kHz, 13 ADC clocks each (104 µs), each waited on ADIF.
        let tenConversions = try #require(values["adif_10_us"].map { Int($0) })
        #expect((1040...1200).contains(tenConversions), "\(tenConversions) µs")
    }

    /// Power-down ends only at a wake-up source (the watchdog; INT0 at low
    /// level, not on an edge) and 16K clock cycles of start-up later; idle
    /// ends at Timer0's overflow; SLEEP with SE clear does nothing; the
    /// watchdog's interrupt mode keeps interrupting. simavr 1.6 ran every mode
    /// as idle, slept without SE, and let the watchdog interrupt once.
    @Test func sleepModesEndAtTheirWakeUpSources() throws {
        let sketch = try SketchFixtures.sleepModes.get()
        let (outcome, record, _) = try run(sketch.elf, RunPlan(timeoutMicros: 4_000_000, steps: [
            .waitSerial(pattern: "^down$", timeoutMicros: nil),
            .waitSerial(pattern: "^up ", timeoutMicros: nil),
            .waitSerial(pattern: "^edge$", timeoutMicros: nil),
            .wait(micros: 50_000),
            .drivePin(.d2, high: false, label: "test"),
            .waitSerial(pattern: "^edge int0=", timeoutMicros: nil),
            .drivePin(.d2, high: true, label: "test"),
            .waitSerial(pattern: "^level$", timeoutMicros: nil),
            .wait(micros: 100_000),
            .drivePin(.d2, high: false, label: "test"),
            .waitSerial(pattern: "^level int0=", timeoutMicros: nil),
        ]))
        #expect(outcome == .passed)
        let text = String(decoding: record.serial, as: UTF8.self)
        var values: [String: Int] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            for field in line.split(separator: " ") {
                let pair = field.split(separator: "=")
                if pair.count == 2, let n = Int(pair[1]) { values["\(line.split(separator: " ")[0]) \(pair[0])"] = n }
            }
            let parts = line.split(separator: " ")
            if parts.count == 2, let n = Int(parts[1]) { values[String(parts[0])] = n }
        }
        // 500 ms of 16.384 ms periods.
        #expect((29...32).contains(values["wdt"] ?? 0), "\(text)")
        #expect((1...1100).contains(values["idle us"] ?? 0), "\(text)")
        #expect(values["nose wdt"] == 0, "\(text)")
        #expect(values["up wdt"] == 1 && (values["up ms"] ?? 99) <= 2, "\(text)")
        #expect(values["edge int0"] == 0, "\(text)")
        #expect(values["level int0"] == 1, "\(text)")

        let matched = record.notes.filter { $0.0.hasPrefix("serial matched") }.map(\.1)
        try #require(matched.count == 6)
        // The watchdog's 0.5 s (65 536 periods of its 128 kHz oscillator), the start-up, the line.
        let slept = matched[1] - matched[0]
        #expect((512_000...520_000).contains(slept), "power-down lasted \(slept) µs")
        #expect((512_000...520_000).contains(matched[3] - matched[2]), "the edge ended the sleep: \(matched[3] - matched[2]) µs")
        // INT0 at low level wakes it, after the crystal's 16K cycles (1.024 ms at 16 MHz).
        let woke = matched[5] - (matched[4] + 100_000)
        #expect((1_024...5_000).contains(woke), "woke \(woke) µs after the line went low")
    }

    /// analogRead's references are the board's supply: readVcc (the 1.1 V
    /// bandgap against AVCC) says 5 V on an Uno and 3.3 V on a 3.3 V board
    /// (simavr took 3.3 V when no one set it); the temperature sensor reads
    /// as at 25 °C (it read 0).
    @Test(arguments: [5000, 3300] as [UInt32])
    func readVccSaysTheBoardsSupply(millivolts: UInt32) throws {
        let sketch = try SketchFixtures.adcRefs.get()
        let (outcome, record, _) = try run(sketch.elf, RunPlan(timeoutMicros: 1_000_000, steps: [
            .waitSerial(pattern: "^temp ", timeoutMicros: nil),
        ]), supplyMillivolts: millivolts)
        #expect(outcome == .passed)
        var values: [String: Double] = [:]
        for line in String(decoding: record.serial, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: " ")
            if parts.count == 2, let n = Double(parts[1]) { values[String(parts[0])] = n }
        }
        let vcc = try #require(values["vcc"]), temperature = try #require(values["temp"])
        #expect(abs(vcc / Double(millivolts) - 1) < 0.02, "readVcc \(vcc) mV on a \(millivolts) mV supply")
        #expect(abs(temperature - 314 * 1023 / 1100) <= 2, "temperature channel \(temperature)")
    }

    /// analogRead is Vin · 1024 / Vref, as on the chip (simavr 1.6 scaled by
    /// 1023: each of these read one lower; Wokwi's potentiometer test expects
    /// 512 at half of 5 V).
    @Test func analogReadConvertsAsTheChip() throws {
        let sketch = try SketchFixtures.adcRefs.get()
        var steps: [RunStep] = [.waitSerial(pattern: "^a0 0$", timeoutMicros: nil)]
        for (millivolts, reading) in [(2500, 512), (4995, 1022), (2442, 500), (4999, 1023)] as [(UInt32, Int)] {
            steps += [.setAnalog(channel: 0, millivolts: millivolts, label: "test"),
                      .waitSerial(pattern: "^a0 \(reading)$", timeoutMicros: 100_000)]
        }
        let (outcome, record, _) = try run(sketch.elf, RunPlan(timeoutMicros: 2_000_000, steps: steps))
        #expect(outcome == .passed, "\(String(decoding: record.serial, as: UTF8.self))")
    }

    @Test func twoRunsGiveTheSameBytesAndScreensAtTheSameSimulatedTimes() throws {
        let sketch = try SketchFixtures.tiltBar.get()
        // The tour: level at 1 s, right side down 21° at 4.3 s and 35° at 6 s.
        let plan = RunPlan(timeoutMicros: 6_500_000, timedScreens: [1_000_000, 4_300_000, 6_000_000].map {
            TimedScreen(atMicros: UInt64($0), action: .save(name: "t\($0)"))
        })
        let (firstOutcome, first, _) = try run(sketch.hex, plan, motion: Self.tour)
        let (secondOutcome, second, _) = try run(sketch.hex, plan, motion: Self.tour)
        #expect(firstOutcome == .passed && secondOutcome == .passed)
        #expect(first.serial.count > 500)
        #expect(first.serial == second.serial)
        #expect(first.screens.map(\.2) == [1_000_000, 4_300_000, 6_000_000])
        #expect(first.screens.map(\.1) == second.screens.map(\.1))
        // Not vacuous: the tour moves the bar between the screenshots.
        #expect(Set(first.screens.map(\.1)).count == 3)
    }

    @Test func stepsWaitSendAndSetTheMotionInOrder() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let (outcome, record, now) = try run(echo.elf, RunPlan(timeoutMicros: 5_000_000, steps: [
            .waitSerial(pattern: "ready$", timeoutMicros: 100_000),
            .sendSerial(Array("hello there\n".utf8)),
            .waitSerial(pattern: "^echo: hello there$", timeoutMicros: 100_000),
            .wait(micros: 400_000),
            .waitSerial(pattern: "tick \\d+", timeoutMicros: nil),
        ]))
        #expect(outcome == .passed)
        let matched = record.notes.filter { $0.0.hasPrefix("serial matched") }
        #expect(matched.count == 3)
        // The echo comes after the send; the wait lets 0.4 s pass; ticks since then count.
        let echoed = try #require(matched.dropFirst().first?.1)
        #expect(now >= echoed + 400_000)
        // Ticks printed during the wait count: the first one matches as the wait ends.
        let tick = try #require(matched.last)
        #expect(tick.0.contains(": tick ") && tick.1 == echoed + 400_000)

        let bar = try SketchFixtures.tiltBar.get()
        let steps: [RunStep] = [
            .waitSerial(pattern: "ready", timeoutMicros: nil),
            .wait(micros: 200_000), .saveScreen(name: "level"),
            .setMotion(Motion(.script(MotionScript(keys: [.init(0, Pose(back: 30, right: 30))])))),
            .wait(micros: 200_000), .saveScreen(name: "right"),
        ]
        let (barOutcome, barRecord, _) = try run(bar.hex, RunPlan(timeoutMicros: 2_000_000, steps: steps))
        #expect(barOutcome == .passed)
        let lit = barRecord.screens.map { screen in (0..<128).filter { screen.1[$0, 10] }.count }
        // Level: a bar to the middle; right side down 30°: ax = -0.5 g, 32 columns shorter.
        #expect(lit == [64, 32])
    }

    @Test func aFailurePatternEndsTheRunWhenItsLineArrives() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let (outcome, _, now) = try run(echo.elf, RunPlan(timeoutMicros: 5_000_000, failPatterns: ["FATAL"], steps: [
            .waitSerial(pattern: "ready", timeoutMicros: nil), .sendSerial(Array("crash\n".utf8)),
            .waitSerial(pattern: "never printed", timeoutMicros: nil),
        ]))
        guard case .failureText(let why) = outcome else {
            Issue.record("expected the failure text, got \(outcome)")
            return
        }
        #expect(why.contains("'FATAL: asked to fail'") && why.contains("/FATAL/"))
        #expect(now < 100_000)
    }

    /// A long last line is shown by its end in "serial so far ends with"
    /// (its first 120 characters were: "0,1,2,…,42,4…", not "…,99,THE-END").
    @Test func aLongLineIsQuotedByItsEndWhereItsEndMatters() {
        let line = (0..<100).map(String.init).joined(separator: ",") + ",THE-END"
        let end = SketchRun.quoted(line, keepingEnd: true)
        #expect(end.hasPrefix("…") && end.hasSuffix(",98,99,THE-END") && end.unicodeScalars.count == 121, "\(end)")
        #expect(SketchRun.quoted(line).hasPrefix("0,1,2,") && SketchRun.quoted(line).hasSuffix("…"))
        #expect(SketchRun.quoted("short\r", keepingEnd: true) == "short\\r")
    }

    @Test func waitingPastAStepsTimeoutOrTheRunsTimesOutAtThatSimulatedInstant() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let (step, _, stepEnd) = try run(echo.elf, RunPlan(timeoutMicros: 5_000_000, steps: [
            .wait(micros: 100_000), .waitSerial(pattern: "never printed", timeoutMicros: 300_000),
        ]))
        guard case .timedOut(let why) = step else { Issue.record("got \(step)"); return }
        #expect(stepEnd == 400_000)
        #expect(why.contains("/never printed/ did not appear within 0.300 s") && why.contains("tick"))

        let (whole, _, wholeEnd) = try run(echo.elf, RunPlan(timeoutMicros: 700_000, steps: [
            .waitSerial(pattern: "never printed", timeoutMicros: nil),
        ]))
        guard case .timedOut = whole else { Issue.record("got \(whole)"); return }
        #expect(wholeEnd == 700_000)

        // Nothing expected: the run just lasts its time and passes.
        let (plain, record, plainEnd) = try run(echo.elf, RunPlan(timeoutMicros: 600_000))
        #expect(plain == .passed && plainEnd == 600_000)
        #expect(String(decoding: record.serial, as: UTF8.self).hasSuffix("tick 500\r\n"))
    }

    /// A Leonardo air mouse: every HID report the sketch sends is read by the
    /// emulated host at once (before, all but the first 12 waited out the
    /// core's 250 ms timeout and failed) and comes out in order, as sent, one
    /// report a packet: a burst of ten back to back fills the endpoint's two
    /// banks and then waits for the host's polls, a millisecond apart (simavr's
    /// one bank took them all in 0.3 ms and handed the host 5 of them joined).
    @Test func aLeonardosHIDReportsAreReadAsAPCWouldAndComeOutAsSent() throws {
        let mouse = try SketchFixtures.hidMouse.get()
        let (outcome, record, _) = try run(mouse.hex, RunPlan(timeoutMicros: 1_000_000), board: .leonardo)
        #expect(outcome == .passed)
        let lines = String(decoding: record.serial, as: UTF8.self).split(separator: "\r\n").map(String.init)
        #expect(lines.first == "hid_mouse ready")
        let burst = try #require(lines.first { $0.hasPrefix("burst of 10 sent in ") })
        let burstMicros = try #require(Int(burst.dropFirst("burst of 10 sent in ".count).dropLast(" us".count)), "\(burst)")
        #expect((7_000...10_000).contains(burstMicros), "two banks at once, then a host poll each: \(burst)")
        let burstReports = Array(record.reports.prefix(10))
        #expect(burstReports.map(\.bytes) == (0..<10).map { [1, 0, UInt8($0), 0, 0] }, "one packet a report")
        let sends = lines.filter { $0.hasPrefix("report ") }
        #expect(sends.count >= 80, "a report every 10 ms or so: \(sends.count)")
        #expect(sends.allSatisfy { $0.hasSuffix(" sent in 0 ms") || $0.hasSuffix(" sent in 1 ms") }, "\(sends.filter { !$0.contains(" sent in ") }.prefix(3))")
        // The reports read are the ones sent, in order: id 1, no buttons, x = n % 5, y = -2, no wheel.
        let reports = record.reports.dropFirst(10).prefix(sends.count)
        #expect(reports.count >= sends.count - 1, "at most the last one still in flight")
        for (n, report) in reports.enumerated() {
            #expect(report.bytes == [1, 0, UInt8(n % 5), 0xFE, 0], "report \(n + 1)")
            #expect(report.endpoint == reports.first?.endpoint)
        }
        // From the second on: the first waited for the burst's last two to be polled.
        let gaps = zip(reports.dropFirst(), reports.dropFirst(2)).map { $1.atMicros - $0.atMicros }
        #expect(gaps.allSatisfy { $0 >= 10_000 && $0 <= 13_000 }, "read as they are sent, each about 10 ms apart: \(gaps.prefix(5))")
    }

    /// A jump into erased flash runs on to the end of flash, where simavr
    /// stops (a board wraps around): the crash says which kind it is, not
    /// "bad opcode, jump or stack" (an outside tester's sketch).
    @Test func aJumpPastTheEndOfFlashIsNamed() throws {
        let (outcome, record, _) = try run(try SketchFixtures.erasedJump.get().elf, RunPlan(timeoutMicros: 1_000_000))
        #expect(String(decoding: record.serial, as: UTF8.self) == "jumping\r\n")
        guard case .crashed(let why) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(why.hasSuffix(" the firmware crashed (it jumped past the end of flash: a bad return address or function pointer, "
                              + "or code run on into erased flash, where a board wraps around, often to a restart)"), "\(why)")
    }

    /// A crash fails a run that expects nothing (a bare run is CI's smoke
    /// test); a sketch that stops on purpose (sleeps with interrupts off) passes.
    @Test func aCrashFailsEvenARunThatExpectsNothing() throws {
        let (crash, _, crashEnd) = try run(BuiltFirmware.program("crashing").get(), RunPlan(timeoutMicros: 2_000_000))
        #expect(crash == .crashed("at 0.000 s the firmware crashed (bad opcode, jump or stack)"), "its first store")
        #expect(crashEnd < 10_000, "ends at the crash, not the timeout")
        var waiting = RunPlan(timeoutMicros: 2_000_000)
        waiting.passTexts = ["never"]
        let (pending, _, _) = try run(BuiltFirmware.program("crashing").get(), waiting)
        guard case .missedExpectation(let why) = pending else { Issue.record("got \(pending)"); return }
        #expect(why == "at 0.000 s the firmware crashed (bad opcode, jump or stack), waiting for \"never\"")

        let (stop, record, stopEnd) = try run(BuiltFirmware.program("stopping").get(), RunPlan(timeoutMicros: 2_000_000))
        #expect(stop == .passed && stopEnd < 10_000)
        #expect(record.serial == Array("X".utf8))
        #expect(record.notes.map(\.0) == ["the firmware stopped (slept with interrupts off or returned from main); nothing more will happen"])
    }

    @Test func aScreenThatDiffersIsAMissedExpectation() throws {
        let bar = try SketchFixtures.tiltBar.get()
        let (saved, record, _) = try run(bar.elf, RunPlan(timeoutMicros: 1_000_000, timedScreens: [
            TimedScreen(atMicros: 500_000, action: .save(name: "now")),
        ]))
        #expect(saved == .passed)
        let screen = try #require(record.screens.first?.1)
        let same = try run(bar.elf, RunPlan(timeoutMicros: 1_000_000, timedScreens: [
            TimedScreen(atMicros: 500_000, action: .expect(name: "same", screen: screen)),
        ]))
        #expect(same.0 == .passed)
        let (differs, differing, _) = try run(bar.elf, RunPlan(timeoutMicros: 1_000_000, steps: [
            .wait(micros: 500_000), .expectScreen(name: "blank", screen: Screen()),
        ]))
        #expect(differs == .missedExpectation("at 0.500 s the screen differs from blank in 4096 of 8192 pixels"))
        #expect(differing.mismatches == ["blank"])
    }

    @Test func intelHexRecordsAndTheirErrors() throws {
        let hex = try IntelHex(parsing: ":0400000001020304F2\r\n:020000040000FA\r\n:00000001FF\r\n")
        #expect(hex.image == [1, 2, 3, 4])
        let offset = try IntelHex(parsing: ":020010001122BB\n:00000001FF\n")
        #expect(offset.image.count == 0x12 && offset.image[0x10] == 0x11 && offset.image[0] == 0xFF)
        #expect(throws: IntelHex.ParseError(line: 1, reason: "bad checksum; the file is damaged, export it again")) {
            try IntelHex(parsing: ":0400000001020304F3\n:00000001FF\n")
        }
        #expect(throws: IntelHex.ParseError(line: 1, reason: "no end-of-file record (:00000001FF); the file is cut short")) {
            try IntelHex(parsing: ":0400000001020304F2\n")
        }
        #expect(throws: IntelHex.ParseError.self) { try IntelHex(parsing: "hello\n") }
        #expect(IntelHex.looksLikeHex(Array("\n:00000001FF".utf8)) && !IntelHex.looksLikeHex(Array("\u{7f}ELF".utf8)))
    }
}
