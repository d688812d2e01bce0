@testable import BoardEmulator
import Foundation
import TestSupport
import Testing
import TiltAssets
import TiltCore
import WireProtocol

/// The firmware (Hardware/build/tiltserial.elf) in AVRBoard, spoken to over its
/// pty frame by frame: what Hardware/sim/fwcheck.c used to check in C.
@Suite struct EndToEndFirmwareTests {
    /// A board (free-running unless told otherwise) with a protocol client on
    /// its pty (opened before the core starts, so the client sees the boot HELLO).
    /// Tests that must catch a screen inside the firmware's 1 s (board time)
    /// OFFSETS timeout run it at real time: free-running at ~5× on a loaded
    /// machine, a test thread that waits 200 ms for the CPU misses it.
    static func connected(sensor: UInt8? = 0x68, whoAmI: UInt8 = 0x68, display: UInt8 = 0x3C,
                          displayPart: EmulatedDisplay = .ssd1306, motion: any MotionSource = ConstantMotionSource.faceUp,
                          pace: AVRPace = .freeRunning) throws -> (AVRBoard, PtyPeer) {
        let board = try Firmware.board(pace: pace, motion: motion, sensor: sensor, whoAmI: whoAmI, display: display, displayPart: displayPart)
        let client = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        return (board, client)
    }

    /// Mean period between the first and last sample of `samples`, counting
    /// sequence numbers (a SAMPLE the UART had no room for still used one).
    static func meanPeriod(_ samples: ArraySlice<TimedSample>) -> Double {
        guard let first = samples.first, let last = samples.last, samples.count > 1 else { return 0 }
        var steps = 0
        var previous = first.sequence
        for s in samples.dropFirst() {
            steps += Int(s.sequence &- previous)
            previous = s.sequence
        }
        return Double(last.timeMicros - first.timeMicros) / Double(steps)
    }

    /// After every HELLO the first SAMPLE has sequence 0; otherwise +1 each (when `gapless`).
    static func sequenceIssues(_ frames: [Frame], gapless: Bool = true) -> [String] {
        var issues: [String] = []
        var previous: UInt8?
        var afterHello = false
        for frame in frames {
            switch frame {
            case .hello: afterHello = true
            case .sample(let s):
                if afterHello, s.sequence != 0 { issues.append("first SAMPLE after HELLO has sequence \(s.sequence)") }
                if !afterHello, gapless, let p = previous, s.sequence != p &+ 1 { issues.append("gap \(p) → \(s.sequence)") }
                afterHello = false
                previous = s.sequence
            default: break
            }
        }
        return issues
    }

    @Test func helloThenGaplessSamplesAt100HzAndTheWaitingScreen() throws {
        let (board, client) = try Self.connected()
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 150 })
        guard case .hello(let hello)? = client.frames.first else { Issue.record("the first frame is not HELLO"); return }
        #expect(client.hellos.count == 1)
        #expect(hello.protocolVersion == 1 && (hello.firmwareMajor, hello.firmwareMinor, hello.firmwarePatch) == (1, 0, 0))
        #expect(hello.displayWidth == 128 && hello.displayHeight == 64)
        #expect(hello.status == 3, "sensor and display answered")
        #expect(hello.contentTileID == shippedArt.tile.id, "the firmware's assets.h is the host's tile")
        #expect(hello.sampleRateHz == 100 && hello.accelFullScaleSelect == 0 && hello.gyroFullScaleSelect == 0)
        let samples = client.samples
        #expect(abs(Self.meanPeriod(samples[...]) - 10_000) < 50, "100 Hz: \(Self.meanPeriod(samples[...])) µs")
        #expect(samples.allSatisfy { $0.raw.accel.z == 16384 }, "face up at ±2 g")
        #expect(Self.sequenceIssues(client.frames).isEmpty, "\(Self.sequenceIssues(client.frames))")
        #expect(client.decoder.counters.lostFrames == 0 && client.decoder.counters.errors == 0)
        #expect(board.waitFor(timeout: .seconds(10)) { $0.screen == waitingScreen } != nil, "the waiting screen")
    }

    @Test func pingHostHelloAndConfigureWithRatesAndClamping() throws {
        // Face up and turning: the gyro counts show the FS_SEL the firmware set.
        let turning = FunctionMotionSource { _ in
            RawSample(accel: Axes3(x: 0, y: 0, z: 16384), temperature: 0, gyro: Axes3(x: 4000, y: -4000, z: 800))
        }
        let (board, client) = try Self.connected(motion: turning)
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 5 })

        try client.send(PingFrame(token: 0xCAFE_F00D))
        #expect(try client.read { $0.pongs.contains(PongFrame(token: 0xCAFE_F00D)) }, "PONG echoes the token")
        try client.send(HostHelloFrame())
        #expect(try client.read { c in c.hellos.count == 2 && c.frames.last.map { if case .sample = $0 { true } else { false } } ?? false },
                "HOST_HELLO is answered with HELLO, then samples")

        // (asked, HELLO's rate, period µs, AFS asked, AFS reported, FS_SEL, every sample arrives)
        let cases: [(UInt16, UInt16, Double, UInt8, UInt8, UInt8, Bool)] = [
            (200, 200, 5_000, 1, 1, 2, true),
            (333, 333, 3_000, 1, 1, 1, true),
            (5_000, 1000, 1_000, 7, 1, 3, false),  // clamped to 1 kHz; AFS 7 ignored; 115200 baud cannot carry every SAMPLE
            (100, 100, 10_000, 0, 0, 0, true),
        ]
        for (asked, rate, period, afs, reported, fs, gapless) in cases {
            let start = client.frames.count
            let z = Int16(16384 >> reported), gx = Int16(4000 >> fs)
            try client.send(ConfigureFrame(sampleRateHz: asked, accelFullScaleSelect: afs, gyroFullScaleSelect: fs))
            let enough = try client.read { c in
                c.frames[start...].contains { if case .hello = $0 { true } else { false } }
                    && c.frames[start...].filter { if case .sample = $0 { true } else { false } }.count >= 120
            }
            #expect(enough, "CONFIGURE \(asked) Hz")
            let frames = Array(client.frames[start...])
            guard let h = frames.lazy.compactMap({ if case .hello(let h) = $0 { h } else { nil } }).first else { continue }
            #expect(h.sampleRateHz == rate && h.accelFullScaleSelect == reported && h.gyroFullScaleSelect == fs, "\(asked) Hz: \(h)")
            let after = frames.drop { if case .hello = $0 { false } else { true } }
            let samples = after.compactMap { if case .sample(let s) = $0 { s } else { nil } }
            let measured = Self.meanPeriod(samples[...])
            #expect(abs(measured - period) < period * 0.01, "\(asked) Hz: period \(measured) µs, expected \(period)")
            #expect(samples.allSatisfy { $0.raw.accel.z == z && $0.raw.gyro.x == gx }, "\(asked) Hz: full scales AFS \(reported), FS \(fs)")
            #expect(Self.sequenceIssues(Array(after), gapless: gapless).isEmpty, "\(asked) Hz: \(Self.sequenceIssues(Array(after), gapless: gapless))")
        }
        #expect(client.decoder.counters.errors == 0)
    }

    /// At 1 kHz the bus is nearly full with samples; a screen being redrawn
    /// (a new view every 20 ms) takes what is left, and no sensor sample goes
    /// uncounted: the sequence keeps the sensor's clock.
    @Test func atOneKilohertzRedrawingTheScreenCostsNoSensorSample() throws {
        let (board, client) = try Self.connected(pace: .realTime)
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 5 })
        let start = client.frames.count
        try client.send(ConfigureFrame(sampleRateHz: 1000, accelFullScaleSelect: 0, gyroFullScaleSelect: 0))
        #expect(try client.read { c in c.frames[start...].contains { if case .hello = $0 { true } else { false } } })
        let t0 = board.currentStatus.simulatedMicros
        var last = (UInt16(0), UInt16(0), UInt16(0), UInt16(0))
        for i in 0..<30 {
            last = (UInt16(i * 7), UInt16(i * 4), UInt16(i * 6 + 30), UInt16(i * 3 + 60))
            try client.send(OffsetsFrame(sequence: UInt8(i), viewportX: last.0, viewportY: last.1, ribbonX: last.2, ribbonBottom: last.3, flags: []))
            let due = t0 + UInt64(i + 1) * 20_000
            #expect(try client.read { _ in board.currentStatus.simulatedMicros >= due })
        }
        let expected = rendered(last)
        var drawn = false
        try client.read { _ in drawn = board.currentStatus.screen == expected; return drawn }
        #expect(drawn, "the last view is drawn")

        let after = client.frames[start...].drop { if case .hello = $0 { false } else { true } }
        let samples = after.compactMap { if case .sample(let s) = $0 { s } else { nil } }
        #expect(samples.count >= 200)
        let measured = Self.meanPeriod(samples[...])
        #expect(abs(measured - 1_000) < 10, "period \(measured) µs while redrawing")
        #expect(Self.sequenceIssues(Array(after), gapless: false).isEmpty, "\(Self.sequenceIssues(Array(after), gapless: false))")
    }

    @Test func screenEqualsTheRendererForSeveralViewsAndUnder60HzOffsets() throws {
        let (board, client) = try Self.connected(pace: .realTime)
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 5 })
        let views: [(UInt16, UInt16, UInt16, UInt16)] = [
            (0, 0, 0, 0), (3, 5, 60, 30), (130, 77, 200, 120), (384, 192, 500, 250), (255, 127, 250, 140), (17, 250, 20, 255),
        ]
        for (i, view) in views.enumerated() {
            try client.send(OffsetsFrame(sequence: UInt8(i), viewportX: view.0, viewportY: view.1, ribbonX: view.2, ribbonBottom: view.3, flags: []))
            let expected = rendered(view)
            var drawn = false
            try client.read { _ in drawn = board.currentStatus.screen == expected; return drawn }
            #expect(drawn, "screen = renderer for \(view)")
        }

        // 60 OFFSETS, one per 1/60 s of board time, as a host sends them; samples keep flowing.
        let t0 = board.currentStatus.simulatedMicros
        var last = (UInt16(0), UInt16(0), UInt16(0), UInt16(0))
        for i in 0..<60 {
            last = (UInt16(i * 5), UInt16(i * 3), UInt16(i * 5 + 50), UInt16(i * 3 + 40))
            try client.send(OffsetsFrame(sequence: UInt8(100 + i), viewportX: last.0, viewportY: last.1, ribbonX: last.2, ribbonBottom: last.3, flags: []))
            let due = t0 + UInt64(i + 1) * 1_000_000 / 60
            #expect(try client.read { _ in board.currentStatus.simulatedMicros >= due })
        }
        let expected = rendered(last)
        var drawn = false
        try client.read { _ in drawn = board.currentStatus.screen == expected; return drawn }
        #expect(drawn, "after 60 OFFSETS at 60 Hz the screen shows the last one")
        #expect(Self.sequenceIssues(client.frames).isEmpty, "no SAMPLE lost while drawing: \(Self.sequenceIssues(client.frames))")
        #expect(client.decoder.counters.lostFrames == 0 && client.decoder.counters.errors == 0)
    }

    @Test func recoversFromGarbageAndShowsTheWaitingScreenASecondAfterTheLastOffsets() throws {
        let (board, client) = try Self.connected(pace: .realTime)
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 5 })
        // 600 bytes without a delimiter, then a stray short frame, then OFFSETS.
        let garbage = (0..<600).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) | 1 }
        try client.send(garbage + [0x00, 0x05, 0x01, 0x00])
        try client.send(OffsetsFrame(sequence: 50, viewportX: 99, viewportY: 33, ribbonX: 120, ribbonBottom: 60, flags: []))
        let expected = rendered((99, 33, 120, 60))
        var drawnAt: UInt64?
        try client.read { _ in
            let s = board.currentStatus
            if s.screen == expected { drawnAt = s.simulatedMicros }
            return drawnAt != nil
        }
        let drawn = try #require(drawnAt, "the OFFSETS after the garbage is drawn")

        var backAt: UInt64?
        try client.read { _ in
            let s = board.currentStatus
            if s.screen == waitingScreen { backAt = s.simulatedMicros }
            return backAt != nil
        }
        let back = try #require(backAt, "the waiting screen comes back")
        // Drawn within ~40 ms of arrival; the timeout runs 1 s from arrival, then ~35 ms of drawing.
        #expect(back - drawn >= 900_000 && back - drawn <= 1_300_000, "waiting screen \(back - drawn) µs after the view was on screen")
        #expect(Self.sequenceIssues(client.frames).isEmpty)
        #expect(client.decoder.counters.errors == 0 && client.hellos.count == 1, "no reset")
    }

    @Test func withoutASensorNoSamplesNoWatchdogResetsAndTheNoSensorScreen() throws {
        let (board, client) = try Self.connected(sensor: nil)
        defer { board.stop() }
        // 3 s of board time: the firmware re-probes every second and must not be reset by its watchdog.
        #expect(try client.read { _ in board.currentStatus.simulatedMicros >= 3_000_000 })
        #expect(client.hellos.count == 1, "one HELLO in 3 s (\(client.hellos.count))")
        #expect(client.hellos.first?.status == 2, "HELLO: display only")
        #expect(client.samples.isEmpty)
        #expect(board.currentStatus.screen == noSensorScreen)
        try client.send(PingFrame(token: 7))
        #expect(try client.read { $0.pongs == [PongFrame(token: 7)] }, "PING still answered")
        #expect(client.decoder.counters.errors == 0)
    }

    /// A GY-521 with AD0 tied high answers at 0x69, and Adafruit's 128×64
    /// breakout (SA0 high) at 0x3D: the firmware finds both (it used to look at
    /// 0x68 and 0x3C only), streams as usual and says on its waiting screen
    /// which sensor it found where.
    @Test(arguments: [0x3C, 0x3D] as [UInt8])
    func aSensorAt0x69IsFoundAndNamedOnTheWaitingScreen(display: UInt8) throws {
        let (board, client) = try Self.connected(sensor: 0x69, display: display)
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 50 })
        #expect(client.hellos.first?.status == 3, "sensor and display answered")
        #expect(client.samples.allSatisfy { $0.raw.accel.z == 16384 }, "face up at ±2 g")
        #expect(Self.sequenceIssues(client.frames).isEmpty)
        let named = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD", 7: "MPU6050 AT 69"])
        #expect(board.waitFor(timeout: .seconds(10)) { $0.screen == named } != nil, "the waiting screen names the part")
        // DESCRIBE: the board says which parts it found where (PARTS).
        try client.send(DescribeFrame())
        #expect(try client.read { $0.parts.count == 1 })
        #expect(client.parts.first == PartsFrame(sensorAddress: 0x69, sensorWhoAmI: 0x68, displayAddress: display))
        // A view on the glass pixel for pixel as the host's mirror draws it.
        let offsets = OffsetsFrame(sequence: 0, viewportX: 123, viewportY: 45, ribbonX: 250, ribbonBottom: 15, flags: [])
        try client.send(offsets)
        #expect(board.waitFor(timeout: .seconds(20)) { $0.screen == rendered(offsets) } != nil, "the view on a display at \(display)")
    }

    /// GY-521 boards often carry an MPU-6500 (WHO_AM_I 0x70), an MPU-9250
    /// (0x71) or a look-alike (0x98 is the most reported): the firmware used to
    /// refuse all but 0x68 (NO SENSOR); now it streams from them and names
    /// them on its waiting screen.
    @Test(arguments: [(0x70, "MPU6500 AT 68"), (0x71, "MPU9250 AT 68"), (0x98, "ID 98 AT 68"), (0x12, "ID 12 AT 68")] as [(UInt8, String)])
    func partsOfTheFamilyAreAcceptedAndNamed(whoAmI: UInt8, named: String) throws {
        let (board, client) = try Self.connected(whoAmI: whoAmI)
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 50 })
        #expect(client.hellos.first?.status == 3, "sensor and display answered")
        #expect(client.samples.allSatisfy { $0.raw.accel.z == 16384 }, "face up at ±2 g, 16384 LSB/g on every part")
        #expect(Self.sequenceIssues(client.frames).isEmpty)
        let screen = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD", 7: named])
        #expect(board.waitFor(timeout: .seconds(10)) { $0.screen == screen } != nil, "the waiting screen says \(named)")
        try client.send(DescribeFrame())
        #expect(try client.read { $0.parts.count == 1 })
        #expect(client.parts.first == PartsFrame(sensorAddress: 0x68, sensorWhoAmI: whoAmI, displayAddress: 0x3C))
    }
}
