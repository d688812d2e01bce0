import Foundation
import Testing
import TiltAssets
import TiltCore
import TiltDisplay
import WireProtocol
@testable import BoardEmulator

/// Motion to photon on our firmware in simavr, stepped in simulated time by a
/// scripted host (no pty, no wall clock): exact, whatever the machine's load.
/// The checks are facts of the wire and the bus, not today's figures, so a
/// faster firmware passes them too.
@Suite struct GlassStatsTests {
    static let art = try! TiltAssets.load()

    /// The fastest a 115200-baud UART runs on a 16 MHz AVR (U2X, UBRR 16:
    /// 117 647 baud): 10 bits a byte, 85 µs.
    static let minimumByteMicros: UInt64 = 85

    /// View `k`: every one different, no ribbon.
    static func view(_ k: Int) -> OffsetsFrame {
        OffsetsFrame(sequence: UInt8(truncatingIfNeeded: k), viewportX: UInt16(7 * k % 300), viewportY: UInt16(3 * k % 150),
                     ribbonX: 0, ribbonBottom: 0, flags: [])
    }

    /// The screen `offsets` should give (no drawer), by TiltDisplay's renderer.
    static func screen(_ offsets: OffsetsFrame) -> Screen {
        var screen = Screen()
        art.renderer.render(viewportX: offsets.viewportX, viewportY: offsets.viewportY, ribbonX: offsets.ribbonX,
                            ribbonBottom: offsets.ribbonBottom, into: &screen)
        return screen
    }

    /// What a scripted run saw: the glass, the captures asked for, for each
    /// view sent the sequence of the newest SAMPLE the host had decoded by
    /// then, and every SAMPLE since the last HELLO.
    struct Run {
        var stats: GlassStats
        var captures: [UInt64: AVRDisplayFrame]
        var newestAtSend: [UInt8?]
        var samples: [TimedSample]
        /// Every PARTS the board sent (the answers to DISPLAY).
        var parts: [PartsFrame] = []
    }

    /// Boots the firmware (ours unless `firmwarePath` names another ELF) with
    /// motion to photon recorded, sends CONFIGURE `sampleRateHz` at 100 ms
    /// unless it is the board's default 100 Hz, then plays a host that sends
    /// `offsets(k)` every `everyMicros` of board time from 300 ms until
    /// `endMicros` (followed by the bytes `also(k)`: DRAWER, PIN frames),
    /// taking the board's output every 1 ms batch; `display`: the controller.
    /// `capture` asks for glass captures before the run. `displayClock`:
    /// DISPLAY set-clock at 50 ms; `displayMaxClockHz`: the module's limit.
    static func run(everyMicros: UInt64, endMicros: UInt64, capture: [UInt64] = [], sampleRateHz: UInt16 = 100,
                    firmwarePath: String? = nil, board: ArduinoBoard = .uno, displayClock: DisplayClock? = nil,
                    displayMaxClockHz: UInt32? = nil, display: EmulatedDisplay = .ssd1306, offsets: (Int) -> OffsetsFrame = view,
                    also: (Int) -> [UInt8] = { _ in [] }) throws -> Run {
        var configuration = AVRMachine.Configuration(firmwarePath: try firmwarePath ?? BuiltFirmware.tiltserial())
        configuration.configure(for: board)
        configuration.displayMaxClockHz = displayMaxClockHz
        configuration.display = display
        let machine = try AVRMachine(configuration)
        machine.recordGlassStats(renderer: art.renderer)
        for t in capture { #expect(machine.captureDisplay(atMicros: t)) }
        var next: UInt64 = 300_000, k = 0
        var configure: UInt64? = sampleRateHz == 100 ? nil : 100_000
        var setClock = displayClock
        var parts: [PartsFrame] = []
        var captures: [UInt64: AVRDisplayFrame] = [:]
        var decoder = FrameDecoder()
        var newest: UInt8?
        var newestAtSend: [UInt8?] = []
        var samples: [TimedSample] = []
        while machine.simulatedMicros < endMicros {
            if let clock = setClock, machine.simulatedMicros >= 50_000 {
                #expect(machine.sendSerial(DisplayFrame(setClock: clock).encoded()) > 0)
                setClock = nil
            }
            if let at = configure, machine.simulatedMicros >= at {
                let frame = ConfigureFrame(sampleRateHz: sampleRateHz, accelFullScaleSelect: 0, gyroFullScaleSelect: 0)
                #expect(machine.sendSerial(frame.encoded()) > 0)
                configure = nil
            }
            if machine.simulatedMicros >= next {
                #expect(machine.sendSerial(offsets(k).encoded() + also(k)) > 0)
                newestAtSend.append(newest)
                k += 1
                next += everyMicros
            }
            machine.runBatch()
            decoder.feed(machine.takeSerialOutput()) {
                switch $0 {
                case .sample(let s):
                    newest = s.sequence
                    samples.append(s)
                case .hello: samples.removeAll()
                case .parts(let p): parts.append(p)
                default: break
                }
            }
            captures.merge(machine.takeDisplayCaptures()) { a, _ in a }
        }
        #expect(machine.haltReason == nil)
        return Run(stats: try #require(machine.glassStats), captures: captures, newestAtSend: newestAtSend, samples: samples,
                   parts: parts)
    }

    /// A new view every 16 ms (a host's pace) for a second: every frame
    /// counted obeys the wire's and the bus's physics.
    @Test func everyGlassFrameObeysTheWireAndTheBus() throws {
        let run = try Self.run(everyMicros: 16_000, endMicros: 1_300_000)
        let (stats, newestAtSend) = (run.stats, run.newestAtSend)
        let frames = stats.frames
        print("a new view every 16 ms: \(stats.line); \(stats.json)")
        #expect(frames.count >= 5, "\(frames.count) glass frames in a second of views changing every 16 ms")
        let offsetsWire = UInt64(Self.view(1).encoded().count)
        let sampleWire: UInt64 = 23  // TILT_SAMPLE_WIRE: type, 18-byte body, CRC, COBS code, delimiter
        var sent: [OffsetsFrame] = []
        for k in 0..<80 { sent.append(Self.view(k)) }
        var lastIndex = -1
        for (n, f) in frames.enumerated() {
            let sample = try #require(f.sampleMicros, "frame \(n) has no sample")
            // The sample was read and sent (a whole SAMPLE on the line) before the OFFSETS began.
            #expect(sample + sampleWire * Self.minimumByteMicros <= f.offsetsStartMicros, "frame \(n)")
            // The OFFSETS crossed the line before the board could draw it.
            #expect(f.photonMicros >= f.offsetsStartMicros + offsetsWire * Self.minimumByteMicros, "frame \(n)")
            #expect(f.photonMicros > f.offsetsEndMicros)
            // Views reach the glass in the order sent, each at most once.
            let index = try #require(sent.firstIndex { $0.viewportX == f.viewportX && $0.viewportY == f.viewportY })
            #expect(index > lastIndex, "frame \(n) shows view \(index) after view \(lastIndex)")
            lastIndex = index
            // The sample is the newest the host had when it sent the view, or the one
            // before (whose last byte may have been on the line still at the send).
            let hostNewest = try #require(newestAtSend[index])
            let sequence = try #require(f.sampleSequence)
            #expect(sequence == hostNewest || sequence == hostNewest &- 1, "frame \(n): sample \(sequence), host had \(hostNewest)")
            if n > 0 {
                #expect(f.photonMicros > frames[n - 1].photonMicros)
                // DATA_RDY times sit on the sensor's 10 ms grid (100 Hz, none lost), as far apart as the sequences.
                let previous = frames[n - 1]
                let steps = UInt64(sequence &- previous.sampleSequence!)
                #expect(sample - previous.sampleMicros! == steps * 10_000, "frame \(n)")
            }
        }
        // The glass cannot outrun its bus: bytes a frame took at 9 SCL periods each.
        let bus = try #require(stats.bus)
        #expect(stats.bytesPerFrame > 0)
        #expect(stats.summary.framesPerSecond <= stats.busLimitFramesPerSecond * 1.02,
                "\(stats.line) (TWBR \(bus.twbr))")
        #expect(stats.summary.p50Micros! <= stats.summary.p95Micros! && stats.summary.p95Micros! <= stats.summary.maxMicros!)
    }

    /// At 1 kHz the sensor comes first: every sample it makes is either sent
    /// or counted (a gap in the sequence numbers exactly as long as the time
    /// between the SAMPLEs on either side says), and the glass still draws.
    /// The floor for the glass: 20 frames/s while moving, issue 19's target
    /// (20.7 measured on 2026-11-27 with pieces sized without a division and
    /// as short as 2 bytes; 19.8 before, 13.7 before 11-25's one sensor read:
    /// both fail it). Which views a latch catches moves the count by a frame,
    /// so the run is 5 s long (0.2 frames/s a frame; over 1.2 s, 0.8 hid that
    /// the Uno drew 20.1 once its UART took ten bit times a byte, not simavr's
    /// eleven: 19.96 over 1.2 s). Simulated time is exact, so this does not
    /// move with the machine's load. On the Leonardo, whose USB carries every
    /// sample, the glass drew 11 frames/s until the sensor's reads were
    /// rationed while it draws; the 8 MHz Pro Micro's stood still (0.0 while
    /// moving), and with reads every 2 ms like the 16 MHz boards' drew 11:
    /// its CPU, half as fast, reads every 4 ms and sets its floor at 15.
    @Test(arguments: [(ArduinoBoard.uno, 20.0), (.leonardo, 20), (.proMicro8MHz, 15)])
    func atOneKilohertzNoSampleIsLostAndTheGlassKeepsDrawing(board: ArduinoBoard, floor: Double) throws {
        let run = try Self.run(everyMicros: 16_000, endMicros: 5_300_000, sampleRateHz: 1000,
                               firmwarePath: try BuiltFirmware.tiltserial(for: board), board: board)
        print("1 kHz on the \(board.title), a new view every 16 ms: \(run.stats.line); \(run.stats.json)")
        let samples = run.samples
        // 115200 baud carries one 23-byte SAMPLE per 2 ms, and while the glass
        // draws a 16 MHz board reads one at most every 2 ms (8 MHz: 4 ms): at
        // least 500 (250) of the sensor's 1000 a second reach the host (the
        // run has 5.2 s after the HELLO).
        let least = 5 * 500 * Int(board.frequency) / 16_000_000
        #expect(samples.count >= least, "\(samples.count) SAMPLEs after the HELLO at 1 kHz")
        var counted = 0
        for (a, b) in zip(samples, samples.dropFirst()) {
            let steps = Int(b.sequence &- a.sequence)
            // A sample's time is when the board read it, up to a few hundred µs after its
            // DATA_RDY: the nearest whole number of 1 ms periods is the samples made between.
            let periods = Int((Double(b.time.micros - a.time.micros) / 1000).rounded())
            #expect(steps == periods, "seq \(a.sequence) → \(b.sequence) over \(b.time.micros - a.time.micros) µs")
            #expect(steps >= 1)
            counted += steps
        }
        // The sequence counts every sample the sensor made between the first SAMPLE and the last.
        let span = Double(samples.last!.time.micros - samples.first!.time.micros)
        #expect(abs(Double(counted) - span / 1000) < 1.5, "\(counted) samples counted over \(span) µs")
        let moving = run.stats.summary.movingFramesPerSecond
        #expect(moving >= floor, "glass \(moving) frames/s while moving at 1 kHz: \(run.stats.line)")
    }

    /// Run twice (the same inputs at the same simulated instants give the same
    /// run): in the second, the glass captured at each frame's photon time is
    /// the view rendered, and just before its last changing byte it was not.
    @Test func theGlassShowsTheViewFromItsPhotonTimeAndNotBefore() throws {
        let first = try Self.run(everyMicros: 16_000, endMicros: 700_000).stats
        let frames = Array(first.frames.prefix(6))
        #expect(frames.count >= 3)
        let bus = try #require(first.bus)
        let sclMicros = Int(9 * bus.sclCycles / 16) + 1  // a byte's nine SCL periods, rounded up
        let times = frames.flatMap { [$0.photonMicros, $0.photonMicros - UInt64(sclMicros) - 1] }
        let secondRun = try Self.run(everyMicros: 16_000, endMicros: 700_000, capture: times)
        let (second, captures) = (secondRun.stats, secondRun.captures)
        #expect(Array(second.frames.prefix(6)) == frames, "the second run differs from the first")
        for f in frames {
            let offsets = OffsetsFrame(sequence: 0, viewportX: f.viewportX, viewportY: f.viewportY, ribbonX: f.ribbonX,
                                       ribbonBottom: f.ribbonBottom, flags: [])
            let expected = Self.screen(offsets).bytes
            let at = try #require(captures[f.photonMicros])
            let shown = at.vram == expected
            #expect(shown, "view (\(f.viewportX), \(f.viewportY)) not on the glass at \(f.photonMicros) µs")
            let before = try #require(captures[f.photonMicros - UInt64(sclMicros) - 1])
            let early = before.vram == expected
            #expect(!early, "view (\(f.viewportX), \(f.viewportY)) already whole before its last byte")
        }
    }

    /// A still view: once it is on the glass, the same OFFSETS again and again
    /// add no frame; a different one adds one.
    @Test func aStillViewAddsNoFrames() throws {
        let still = Self.view(5)
        let stats = try Self.run(everyMicros: 16_000, endMicros: 900_000) { k in k < 30 ? still : Self.view(6) }.stats
        // 300 ms of the still view (30 OFFSETS), then the new one from 780 ms on.
        let views = stats.frames.map { ($0.viewportX, $0.viewportY) }
        #expect(views.count == 2, "\(views)")
        #expect(views.first.map { $0 == (still.viewportX, still.viewportY) } == true)
        #expect(views.last.map { $0 == (Self.view(6).viewportX, Self.view(6).viewportY) } == true)
    }

    /// Views arriving faster than frames (a host answering READY with a view
    /// per sample): each latch takes the newest, so of ten views 2 ms apart
    /// the glass shows the first (latched from idle) and then the last only.
    @Test func eachFrameTakesTheNewestView() throws {
        let stats = try Self.run(everyMicros: 2_000, endMicros: 500_000) { k in Self.view(min(k, 9)) }.stats
        let views = stats.frames.map { [Int($0.viewportX), Int($0.viewportY)] }
        let expected = [0, 9].map { [Int(Self.view($0).viewportX), Int(Self.view($0).viewportY)] }
        #expect(views == expected, "\(views)")
    }

    /// A 128 × 32 module cannot be told from a 128 × 64 one, so the firmware
    /// sends it the same frames, which its 32 lines show squeezed: the frames
    /// are timed in the controller's RAM, the same as on the 128 × 64 module.
    /// (Compared with its glass, none matched: "no frame reached the glass".)
    @Test func aSqueezed128x32ModuleIsTimedAsThe128x64One() throws {
        let full = try Self.run(everyMicros: 16_000, endMicros: 700_000).stats
        let squeezed = try Self.run(everyMicros: 16_000, endMicros: 700_000, display: .ssd1306_128x32).stats
        #expect(full.frames.count >= 10)
        #expect(squeezed.frames == full.frames)
    }

    /// Nothing is recorded unless asked: the cost with --stats off is nil.
    @Test func nothingIsRecordedUnlessAsked() throws {
        let machine = try AVRMachine(.init(firmwarePath: try BuiltFirmware.tiltserial()))
        machine.run(untilMicros: 50_000)
        #expect(machine.glassStats == nil)
    }
}

/// Figures for docs/perf/render.md, not checks: the glass at 100 Hz and 1 kHz
/// with the scripted host, our firmware and (if `GLASS_BEFORE` names another
/// ELF, the yardstick) that one, alternately.
/// `AVR_MEASURE=1 GLASS_BEFORE=/path/before.elf swift test --filter GlassStatsMeasurements`
@Suite(.enabled(if: ProcessInfo.processInfo.environment["AVR_MEASURE"] == "1"))
struct GlassStatsMeasurements {
    @Test(arguments: [100, 1000] as [UInt16]) func glassWithAScriptedHost(sampleRateHz: UInt16) throws {
        let before = ProcessInfo.processInfo.environment["GLASS_BEFORE"]
        for round in 1...2 {
            for (name, path) in [("before", before), ("now", try BuiltFirmware.tiltserial())] {
                guard let path else { continue }
                let run = try GlassStatsTests.run(everyMicros: 16_000, endMicros: 1_300_000, sampleRateHz: sampleRateHz,
                                                  firmwarePath: path)
                print("\(sampleRateHz) Hz, round \(round), \(name): \(run.stats.line)")
            }
        }
    }

    /// The display's clock setting (`setup --display-clock`), this firmware,
    /// a new view every 16 ms (a host's pace) and every 8 ms.
    @Test(arguments: [100, 1000] as [UInt16]) func glassAtEachDisplayClock(sampleRateHz: UInt16) throws {
        for every: UInt64 in [16_000, 8_000] {
            for clock in DisplayClock.allCases {
                let run = try GlassStatsTests.run(everyMicros: every, endMicros: 1_300_000, sampleRateHz: sampleRateHz,
                                                  displayClock: clock)
                print("\(sampleRateHz) Hz, a view every \(every / 1000) ms, \(clock.label): \(run.stats.line)")
            }
        }
    }
}
