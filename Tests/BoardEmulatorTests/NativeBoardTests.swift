@testable import BoardEmulator
import Foundation
import SerialIO
import TestSupport
import Testing
import TiltAssets
import TiltCore
import TiltDisplay
import WireProtocol

@Suite struct NativeBoardTests {
    static let noisyTour = Motion(.script(Scenarios.tour), noise: SensorNoise(sampleRate: 100, seed: 3))

    @Test func helloThenSamplesEqualToTheMotionAtExactPeriods() throws {
        let board = try NativeBoard(.test(rate: 100, motion: Self.noisyTour, limit: 50))
        let host = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        defer { board.stop() }
        try host.read(timeout: .seconds(10)) { $0.samples.count == 50 }

        let hello = try #require(host.hellos.first)
        guard case .hello = host.frames.first else { Issue.record("first frame is not HELLO"); return }
        #expect(hello.protocolVersion == 1)
        #expect((hello.firmwareMajor, hello.firmwareMinor, hello.firmwarePatch) == (1, 0, 0))
        #expect(hello.sampleRateHz == 100)
        #expect(hello.displayWidth == 128 && hello.displayHeight == 64)
        #expect(hello.contentTileID == (try TiltAssets.load()).tile.id)
        #expect(hello.status == 3)
        #expect(hello.accelFullScaleSelect == 0 && hello.gyroFullScaleSelect == 0)

        var motion = Self.noisyTour
        for (k, sample) in host.samples.enumerated() {
            let t = UInt64(k + 1) * 10_000
            #expect(sample.sequence == UInt8(k))
            #expect(sample.timeMicros == t)
            #expect(sample.raw == motion.sample(atMicros: t))
        }
        #expect(host.decoder.counters.errors == 0 && host.decoder.counters.lostFrames == 0)
    }

    @Test func sequenceAndBoardTimeWrapAndUnwrap() throws {
        // 17 000 samples at 1 kHz: the sequence wraps 66 times, the 24-bit time once (16.78 s).
        let count: UInt64 = 17_000
        let board = try NativeBoard(.test(rate: 1000, limit: count))
        let host = try PtyPeer(opening: try #require(board.serialPath))
        host.keepFrames = false
        board.start()
        defer { board.stop() }
        #expect(try host.read(timeout: .seconds(60)) { $0.decoder.counters.samplesDecoded == count })
        #expect(host.decoder.tracker.sampleRateHz == 1000)
        let c = host.decoder.counters
        #expect(c.lostFrames == 0 && c.duplicates == 0 && c.errors == 0)
        // The host's unwrapped time of the last sample is exact past the 24-bit wrap.
        #expect(host.lastSampleTime == count * 1000)
        #expect(count * 1000 > 1 << 24)
    }

    @Test func pacedBoardKeepsBoardTimeBehindWallTime() throws {
        let board = try NativeBoard(.test(rate: 200, pace: .realTime))
        let host = try PtyPeer(opening: try #require(board.serialPath))
        let started = ContinuousClock.now
        board.start()
        defer { board.stop() }
        // At least 60: a loaded machine may hand over the 60th with the next ones in one read.
        try host.read(timeout: .seconds(10)) { $0.samples.count >= 60 }
        let wall = ContinuousClock.now - started
        let wallMicros = UInt64(wall.components.seconds) * 1_000_000 + UInt64(wall.components.attoseconds / 1_000_000_000_000)
        let all = host.samples
        let samples = Array(all.prefix(60))
        #expect(samples.count == 60)
        #expect(samples.last!.timeMicros == 60 * 5_000)
        #expect(all.last!.timeMicros <= wallMicros + 5_000)  // never ahead of the wall clock
        #expect(zip(samples.dropFirst(), samples).allSatisfy { $0.timeMicros - $1.timeMicros == 5_000 })
    }

    @Test func oneKilohertzWithOnePercentCorruptionCountsExactly() throws {
        // 5 s of board time at 1 kHz; faults from just after HELLO to 4.9 s, so the
        // HELLO and the last samples arrive intact and every loss shows as a gap.
        let faults = FaultSpec(flipRate: 3e-3, dropRate: 3e-3, insertRate: 3e-3, garbageRate: 1e-3,
                               garbageMaxLength: 24, seed: 42, activeFromMicros: 1, activeUntilMicros: 4_900_000)
        let count: UInt64 = 5_000
        let board = try NativeBoard(.test(rate: 1000, limit: count, faults: faults))
        let host = try PtyPeer(opening: try #require(board.serialPath))
        host.keepFrames = false
        board.start()
        defer { board.stop() }
        // Free-running: the board waits for this reader, so read first, then look at its counts.
        #expect(try host.read(timeout: .seconds(60)) { $0.lastSampleTime == count * 1000 })
        let status = try #require(board.waitFor(timeout: .seconds(10)) { $0.samplesSent == count })
        #expect(host.decoder.tracker.sampleRateHz == 1000)
        let sent = status.samplesSent, hit = status.faults.samplesHit
        let c = host.decoder.counters
        #expect(status.faults.bitFlips > 0 && status.faults.droppedBytes > 0)
        #expect(status.faults.insertedBytes > 0 && status.faults.garbageRuns > 0)
        #expect(hit > 100)  // about one SAMPLE in five is hit
        // Every sample that arrived whole is decoded (the decoder recovers frames
        // from damaged runs); none whose own bytes were broken is; the rest (whole
        // bytes, damaged delimiter) may be. Every other sample is counted lost.
        let whole = status.faults.samplesWhole, broken = status.faults.samplesBroken
        #expect(whole + broken < sent)  // some samples lost only their delimiter
        #expect(c.samplesDecoded >= whole)
        #expect(c.samplesDecoded <= sent - broken)
        #expect(c.samplesDecoded + c.lostFrames == sent)
        #expect(c.duplicates == 0)
        #expect(c.errors >= 1)
        #expect(c.errors <= status.faults.framesHit + status.faults.zerosCreated)
        #expect(status.samplesDroppedUnread == 0)
    }

    @Test func severalBoardsAtOnceEachWithItsOwnDecoder() async throws {
        let count: UInt64 = 3_000
        let boards = try (0..<3).map { _ in try NativeBoard(.test(rate: 1000, limit: count)) }
        let paths = try boards.map { try #require($0.serialPath) }
        #expect(Set(paths).count == 3)
        let hosts = try paths.map { try PtyPeer(opening: $0) }
        for host in hosts { host.keepFrames = false }
        boards.forEach { $0.start() }
        defer { boards.forEach { $0.stop() } }
        let results = try await withThrowingTaskGroup(of: DecoderCounters.self) { group in
            for host in hosts {
                nonisolated(unsafe) let host = host
                group.addTask {
                    try host.read(timeout: .seconds(60)) { $0.decoder.counters.samplesDecoded == count }
                    return host.decoder.counters
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for c in results {
            #expect(c.samplesDecoded == count)
            #expect(c.lostFrames == 0 && c.errors == 0)
        }
    }

    @Test func offsetsDrawTheScreenWithTheScreenRenderer() throws {
        let board = try NativeBoard(.test(rate: 100, pace: .realTime, motion: ConstantMotionSource.faceUp))
        let host = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        defer { board.stop() }
        try host.read(timeout: .seconds(5)) { $0.hellos.count == 1 }
        let waiting = NativeFirmware.statusScreen(version: (1, 0, 0), sensorOK: true)
        // The status screen reaches the glass a frame's bus time after power-on.
        let first = try #require(board.waitFor(timeout: .seconds(5)) { $0.glassFrames >= 1 })
        #expect(first.showsWaitingScreen)
        #expect(first.screen == waiting)
        #expect(waiting != Screen())

        let offsets = OffsetsFrame(sequence: 1, viewportX: 100, viewportY: 37, ribbonX: 250, ribbonBottom: 15, flags: [])
        try host.send(offsets)
        let status = try #require(board.waitFor(timeout: .seconds(5)) { $0.offsetsReceived == 1 && $0.displayIdle })
        var expected = Screen()
        try TiltAssets.load().renderer.render(viewportX: 100, viewportY: 37, ribbonX: 250, ribbonBottom: 15, into: &expected)
        #expect(!status.showsWaitingScreen)
        #expect(status.screen == expected)
        #expect(status.lastOffsets == offsets)
        #expect(status.input.framesDecoded == 1 && status.input.errors == 0)
    }

    @Test func withoutOffsetsForASecondTheWaitingScreenComesBack() throws {
        let board = try NativeBoard(.test(rate: 100, pace: .speed(4), motion: ConstantMotionSource.faceUp))
        let host = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        defer { board.stop() }
        let waiting = try #require(board.waitFor(timeout: .seconds(5)) { $0.glassFrames >= 1 }).screen
        try host.send(OffsetsFrame(sequence: 0, viewportX: 10, viewportY: 10, ribbonX: 250, ribbonBottom: 15, flags: []))
        let drawn = try #require(board.waitFor(timeout: .seconds(5)) { !$0.showsWaitingScreen })
        #expect(drawn.screen != waiting)
        let back = try #require(board.waitFor(timeout: .seconds(5)) { $0.showsWaitingScreen })
        #expect(back.screen == waiting)
        #expect(back.boardMicros >= NativeBoard.hostTimeoutMicros)
    }

    @Test func pingHostHelloAndConfigureAreAnswered() throws {
        let board = try NativeBoard(.test(rate: 100, pace: .realTime, motion: ConstantMotionSource.faceUp))
        let host = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        defer { board.stop() }
        try host.read(timeout: .seconds(5)) { $0.samples.count >= 3 }
        try host.send(PingFrame(token: 0xDEAD_BEEF))
        #expect(try host.read(timeout: .seconds(5)) { $0.frames.contains(.pong(PongFrame(token: 0xDEAD_BEEF))) })

        try host.send(HostHelloFrame())
        // The first sample after the second HELLO (it may come in the same read as the HELLO).
        func afterSecondHello(_ frames: [Frame]) -> [TimedSample] {
            guard let second = frames.indices.filter({ if case .hello = frames[$0] { true } else { false } }).dropFirst().first
            else { return [] }
            return frames[(second + 1)...].compactMap { if case .sample(let s) = $0 { s } else { nil } }
        }
        #expect(try host.read(timeout: .seconds(5)) { !afterSecondHello($0.frames).isEmpty })
        #expect(afterSecondHello(host.frames).first?.sequence == 0)  // restarted after HELLO
        #expect(host.decoder.counters.lostFrames == 0)

        try host.send(ConfigureFrame(sampleRateHz: 200, accelFullScaleSelect: 1, gyroFullScaleSelect: 0))
        host.frames.removeAll()
        #expect(try host.read(timeout: .seconds(5)) { $0.hellos.count == 1 && $0.samples.count >= 5 })
        let hello = try #require(host.hellos.first)
        #expect(hello.sampleRateHz == 200 && hello.accelFullScaleSelect == 1)
        let samples = host.samples
        #expect(samples.allSatisfy { $0.timeMicros % 5_000 == 0 })
        #expect(zip(samples.dropFirst(), samples).allSatisfy { $0.timeMicros - $1.timeMicros == 5_000 })
        #expect(samples.allSatisfy { $0.raw.accel.z == 8192 })  // ±4 g: half the counts
    }

    @Test func resetRestartsHelloSequenceAndBoardTime() throws {
        let board = try NativeBoard(.test(rate: 100, pace: .realTime, motion: ConstantMotionSource.faceUp))
        let host = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        defer { board.stop() }
        try host.read(timeout: .seconds(5)) { $0.samples.count >= 5 }
        board.reset()
        host.frames.removeAll()
        #expect(try host.read(timeout: .seconds(5)) { $0.hellos.count == 1 && $0.samples.count >= 2 })
        let samples = host.samples
        #expect(samples[0].sequence == 0 && samples[1].sequence == 1)
        #expect(host.decoder.tracker.sampleRateHz == 100)
        #expect(board.currentStatus.boots == 2)
        #expect(host.decoder.counters.lostFrames == 0)
        // Board time restarted: the first sample after HELLO carries one period.
        guard case .hello = host.frames.first else { Issue.record("no HELLO first after reset"); return }
        #expect(samples[0].timeMicros == 10_000)
    }

    @Test func unplugHangsUpAndReplugComesBackAtTheSameLink() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("tiltsim-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let board = try NativeBoard(.test(rate: 100, pace: .realTime, motion: ConstantMotionSource.faceUp, link: link))
        board.start()
        defer { board.stop() }
        let first = try #require(board.serialPath)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == first)
        let host = try PtyPeer(opening: link)
        try host.read(timeout: .seconds(5)) { $0.samples.count >= 2 }
        board.unplug()
        #expect(try host.read(timeout: .seconds(5)) { $0.gone })
        #expect(board.serialPath == nil)
        #expect(board.currentStatus.state == .unplugged)

        let second = try board.plugIn()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == second)
        let again = try PtyPeer(opening: link)
        // Generous: on a loaded 2-core machine the replugged board's thread may wait seconds for a core.
        #expect(try again.read(timeout: .seconds(30)) { $0.hellos.count >= 1 && $0.samples.count >= 1 })
        #expect(again.samples[0].sequence == 0)
        board.stop()
        #expect(!FileManager.default.fileExists(atPath: link))
    }

    @Test func aStallHoldsOutputWithoutLosingFrames() throws {
        let board = try NativeBoard(.test(rate: 100, pace: .realTime, motion: ConstantMotionSource.faceUp))
        let host = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        defer { board.stop() }
        try host.read(timeout: .seconds(5)) { $0.samples.count >= 2 }
        board.stall(milliseconds: 200)
        try host.read(timeout: .seconds(5)) { $0.samples.count >= 40 }
        #expect(board.currentStatus.faults.stalls == 1)
        #expect(host.decoder.counters.lostFrames == 0)  // 20 frames fit the 4 KiB buffer
    }

    @Test func faultSpecParsesAndNamesTheFix() throws {
        let spec = try FaultSpec(parsing: "flip=1e-3,drop=2e-3,insert=1e-3,garbage=1e-4,seed=7")
        #expect(spec.flipRate == 1e-3 && spec.dropRate == 2e-3 && spec.insertRate == 1e-3)
        #expect(spec.garbageRate == 1e-4 && spec.seed == 7)
        #expect(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: "flop=1") }
        #expect(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: "flip=2") }
        #expect(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: "flip") }
    }

    @Test func aFaultWindowThatEndsBeforeItStartsIsRefused() throws {
        let window = try FaultSpec(parsing: "drop=1e-3,from=1,until=2.5")
        #expect(window.activeFromMicros == 1_000_000 && window.activeUntilMicros == 2_500_000)
        for empty in ["drop=1e-3,from=5,until=1", "drop=1e-3,from=2,until=2", "drop=1e-3,until=0"] {
            #expect(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: empty) }
        }
        do {
            _ = try FaultSpec(parsing: "from=5,until=1.5")
            Issue.record("an empty fault window was taken")
        } catch {
            #expect(error.description == "fault window from=5 until=1.5 is empty: make until later than from")
        }
    }
}
