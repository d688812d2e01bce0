import Testing
import TiltAssets
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

    /// Boots the firmware with motion to photon recorded, then plays a host
    /// that sends `offsets(k)` every `everyMicros` of board time from 300 ms
    /// until `endMicros`, taking the board's output every 1 ms batch.
    /// `capture` asks for glass captures before the run.
    /// Also returns, for each view sent, the sequence of the newest SAMPLE the host had decoded by then.
    static func run(everyMicros: UInt64, endMicros: UInt64, capture: [UInt64] = [],
                    offsets: (Int) -> OffsetsFrame = view) throws -> (GlassStats, [UInt64: AVRDisplayFrame], [UInt8?]) {
        let machine = try AVRMachine(.init(firmwarePath: try BuiltFirmware.tiltserial()))
        machine.recordGlassStats(renderer: art.renderer)
        for t in capture { #expect(machine.captureDisplay(atMicros: t)) }
        var next: UInt64 = 300_000, k = 0
        var captures: [UInt64: AVRDisplayFrame] = [:]
        var decoder = FrameDecoder()
        var newest: UInt8?
        var newestAtSend: [UInt8?] = []
        while machine.simulatedMicros < endMicros {
            if machine.simulatedMicros >= next {
                #expect(machine.sendSerial(offsets(k).encoded()) > 0)
                newestAtSend.append(newest)
                k += 1
                next += everyMicros
            }
            machine.runBatch()
            decoder.feed(machine.takeSerialOutput()) { if case .sample(let s) = $0 { newest = s.sequence } }
            captures.merge(machine.takeDisplayCaptures()) { a, _ in a }
        }
        #expect(machine.haltReason == nil)
        return (try #require(machine.glassStats), captures, newestAtSend)
    }

    /// A new view every 16 ms (a host's pace) for a second: every frame
    /// counted obeys the wire's and the bus's physics.
    @Test func everyGlassFrameObeysTheWireAndTheBus() throws {
        let (stats, _, newestAtSend) = try Self.run(everyMicros: 16_000, endMicros: 1_300_000)
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

    /// Run twice (the same inputs at the same simulated instants give the same
    /// run): in the second, the glass captured at each frame's photon time is
    /// the view rendered, and just before its last changing byte it was not.
    @Test func theGlassShowsTheViewFromItsPhotonTimeAndNotBefore() throws {
        let (first, _, _) = try Self.run(everyMicros: 16_000, endMicros: 700_000)
        let frames = Array(first.frames.prefix(6))
        #expect(frames.count >= 3)
        let bus = try #require(first.bus)
        let sclMicros = Int(9 * bus.sclCycles / 16) + 1  // a byte's nine SCL periods, rounded up
        let times = frames.flatMap { [$0.photonMicros, $0.photonMicros - UInt64(sclMicros) - 1] }
        let (second, captures, _) = try Self.run(everyMicros: 16_000, endMicros: 700_000, capture: times)
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
        let (stats, _, _) = try Self.run(everyMicros: 16_000, endMicros: 900_000) { k in k < 30 ? still : Self.view(6) }
        // 300 ms of the still view (30 OFFSETS), then the new one from 780 ms on.
        let views = stats.frames.map { ($0.viewportX, $0.viewportY) }
        #expect(views.count == 2, "\(views)")
        #expect(views.first.map { $0 == (still.viewportX, still.viewportY) } == true)
        #expect(views.last.map { $0 == (Self.view(6).viewportX, Self.view(6).viewportY) } == true)
    }

    /// Nothing is recorded unless asked: the cost with --stats off is nil.
    @Test func nothingIsRecordedUnlessAsked() throws {
        let machine = try AVRMachine(.init(firmwarePath: try BuiltFirmware.tiltserial()))
        machine.run(untilMicros: 50_000)
        #expect(machine.glassStats == nil)
    }
}
