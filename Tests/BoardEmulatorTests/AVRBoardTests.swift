@testable import BoardEmulator
import Foundation
import TestSupport
import Testing
import TiltCore

/// End-to-end: the test firmware in simavr, talking to the virtual parts.
@Suite(.serialized) struct AVRBoardTests {
    let still = RawSample(accel: Axes3(x: 1234, y: -2345, z: 16000), temperature: -5678,
                          gyro: Axes3(x: 10, y: -20, z: 300))

    func makeBoard(pace: BoardPace = .freeRunning, source: any MotionSource, link: String? = nil) throws -> AVRBoard {
        try AVRBoard(.init(firmwarePath: AVRTestFirmware.path(), pace: pace, linkPath: link, motionSource: source))
    }

    @Test func readsWhoAmIAndTheMotionSourcesValues() throws {
        let board = try makeBoard(source: ConstantMotionSource(still))
        defer { board.stop() }
        let client = try PtyPeer(opening: #require(board.serialPath), terminal: .asIs, keepText: true)
        board.start()
        #expect(client.readLine { $0.hasPrefix("W") } == "W68")
        let line = try #require(client.readLine { $0.hasPrefix("S") })
        #expect(line.sampleBytes == still.burstBytes)
    }

    @Test func samplesArriveAtTheConfiguredRateInSimulatedTime() throws {
        let board = try makeBoard(source: TimeStampMotionSource())
        defer { board.stop() }
        let client = try PtyPeer(opening: #require(board.serialPath), terminal: .asIs, keepText: true)
        board.start()
        var times = [UInt64]()
        while times.count < 20, let line = client.readLine(where: { $0.hasPrefix("S") }) {
            let bytes = try #require(line.sampleBytes)
            let sample = try #require(RawSample(burst: bytes))
            #expect(sample.accel.z == 16384 && sample.temperature == -1234)
            times.append(TimeStampMotionSource.time(of: sample))
        }
        #expect(times.count == 20)
        // CONFIG = 0 (8 kHz, unfiltered), SMPLRT_DIV = 79: one sample every 10 ms, none skipped.
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 == 10_000 }, "gaps \(gaps)")
        #expect(board.currentStatus.simulatedMicros >= times.last ?? .max)
    }

    @Test func displayShowsThePatternTheFirmwareWrote() throws {
        let board = try makeBoard(source: ConstantMotionSource.faceUp)
        defer { board.stop() }
        board.start()
        let status = board.waitFor(timeout: .seconds(20)) { $0.display.vram == twiProbeDisplayPattern }
        let frame = try #require(status?.display)
        #expect(frame.isOn)
        #expect(frame.contrast == 0x42)
        #expect(frame.isInverted)          // 0x80 0xA7: Co=1 control bytes work
        #expect(frame.isComScanReversed)   // 0x80 0xC8
        #expect(frame.isSegmentRemapped)   // 0xA1 right after start-line 0x40
        #expect(frame.pixel(x: 0, y: 0) == (3 & 1 != 0))
    }

    @Test func bytesSentToTheBoardAllArriveInOrder() throws {
        let board = try makeBoard(source: ConstantMotionSource.faceUp)
        defer { board.stop() }
        let client = try PtyPeer(opening: #require(board.serialPath), terminal: .asIs, keepText: true)
        board.start()
        #expect(client.readLine { $0 == "D" } != nil)
        // More than the UART's 64-byte FIFO, faster than the firmware echoes
        // (each byte comes back as 4): only flow control keeps them all.
        let sent = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 13) }
        try client.send(sent)
        var echoed = [UInt8]()
        while echoed.count < sent.count, let line = client.readLine(where: { $0.hasPrefix("R") }) {
            echoed.append(try #require(UInt8(line.dropFirst(), radix: 16)))
        }
        #expect(echoed == sent)
    }

    @Test func resetRestartsTheFirmware() throws {
        let board = try makeBoard(source: ConstantMotionSource(still))
        defer { board.stop() }
        let client = try PtyPeer(opening: #require(board.serialPath), terminal: .asIs, keepText: true)
        board.start()
        #expect(client.readLine { $0.hasPrefix("S") } != nil)
        board.reset()
        // The line cut short by the reset runs into the first line after it.
        #expect(client.readLine { $0.hasSuffix("W68") } != nil)
        #expect(client.readLine { $0.hasPrefix("S") }?.sampleBytes == still.burstBytes)
    }

    @Test func unplugHangsUpAndPlugInComesBackOnANewPtyAndTheLink() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("avr-link-\(UUID().uuidString)").path
        // The replugged board boots at once, and what it says before a client
        // opens is dropped (as a USB serial adapter drops it). The DTR reset on
        // open is what shows an Uno's client the banner; without it the banner
        // check below would race the client's open.
        var configuration = AVRBoard.Configuration(
            firmwarePath: try AVRTestFirmware.path(), pace: .freeRunning, linkPath: link, motionSource: ConstantMotionSource(still))
        configuration.resetOnConnect = true
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        let first = try #require(board.serialPath)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == first)
        let client = try PtyPeer(opening: link, terminal: .asIs, keepText: true)
        board.start()
        #expect(client.readLine { $0.hasPrefix("S") } != nil)

        board.unplug()
        #expect(board.currentStatus.state == .unplugged)
        #expect(board.serialPath == nil)
        #expect(client.readLine { _ in false } == nil)
        #expect(client.gone)

        let second = try board.plugIn()
        #expect(board.currentStatus.state == .running)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == second)
        let again = try PtyPeer(opening: link, terminal: .asIs, keepText: true)
        #expect(again.readLine { $0.hasPrefix("W") } == "W68")
        #expect(again.readLine { $0.hasPrefix("S") }?.sampleBytes == still.burstBytes)

        board.stop()
        #expect(!FileManager.default.fileExists(atPath: link))
    }

    @Test func resetOnConnectStartsTheClientAtBoot() throws {
        var configuration = try AVRBoard.Configuration(
            firmwarePath: AVRTestFirmware.path(), pace: .freeRunning, motionSource: ConstantMotionSource(still))
        configuration.resetOnConnect = true
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        board.start()
        // Running with nobody listening: its output is dropped.
        #expect(board.waitFor(timeout: .seconds(10)) { $0.sensorSamples > 3 && $0.droppedSerialOutput > 0 } != nil)
        let client = try PtyPeer(opening: #require(board.serialPath), terminal: .asIs, keepText: true)
        // The first bytes the client sees are the boot banner, not the middle of a line.
        #expect(client.readLine() == "W68")
        #expect(client.readLine() == "D")
    }

    @Test(arguments: [BoardPace.realTime, .speed(0.5)])
    func pacedSimulatedTimeNeverRunsAheadOfTheWallClock(pace: BoardPace) throws {
        let board = try makeBoard(pace: pace, source: ConstantMotionSource.faceUp)
        defer { board.stop() }
        let started = ContinuousClock.now
        board.start()
        let status = try #require(board.waitFor(timeout: .seconds(20)) { $0.simulatedMicros >= 150_000 })
        let wallMicros = (ContinuousClock.now - started) / .microseconds(1)
        let factor = try #require(pace.factor)
        #expect(Double(status.simulatedMicros) <= wallMicros * factor + 1_000)
        let report = board.speedReport()
        #expect(report.simulatedSeconds > 0 && report.ratio <= factor * 1.01)
    }

    @Test func stopReturnsWhileAClientHoldsThePtyOpen() throws {
        let board = try makeBoard(pace: .realTime, source: ConstantMotionSource.faceUp)
        let client = try PtyPeer(opening: #require(board.serialPath), terminal: .asIs, keepText: true)
        board.start()
        #expect(board.waitFor(timeout: .seconds(10)) { $0.simulatedMicros > 10_000 } != nil)
        board.stop()
        board.stop()
        #expect(board.currentStatus.state == .stopped)
        #expect(client.readLine(timeout: .seconds(2)) { _ in false } == nil)
    }

    @Test func rejectsFilesThatAreNotAVRFirmware() throws {
        let missing = "/nonexistent/firmware.elf"
        #expect(throws: AVRBoardError.cannotOpenFirmware(path: missing, errno: .noSuchFileOrDirectory)) { try AVRBoard(.init(firmwarePath: missing)) }
        #expect(AVRBoardError.cannotOpenFirmware(path: missing, errno: .noSuchFileOrDirectory).description
            == "cannot open firmware /nonexistent/firmware.elf: no such file")
        do {
            _ = try AVRBoard(.init(firmwarePath: "/bin/sh"))
            Issue.record("a host executable was accepted as AVR firmware")
        } catch {
            guard case .elfRefused(path: "/bin/sh", _) = error else { Issue.record("\(error)"); return }
            #expect(error.isFirmwareProblem)
            #expect(error.description.contains("not an AVR ELF"))
        }
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("not-elf-\(UUID().uuidString)").path
        try "hello".write(toFile: text, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: text) }
        do {
            _ = try AVRBoard(.init(firmwarePath: text))
            Issue.record("a text file was accepted as firmware")
        } catch {
            #expect(error == .notFirmware(path: text))
            #expect(error.description.contains("not an ELF file"))
        }
    }
}

/// Firmware that stops, and boards dropped without stop().
@Suite(.serialized) struct AVRBoardLifecycleTests {
    /// Sends one byte, then sleeps with interrupts off: simavr halts (cpu_Done).
    static var stopping: Result<String, AVRTestFailure> { BuiltFirmware.program("stopping") }
    /// A store far beyond the 2 KiB of RAM: simavr reports a crash.
    static var crashing: Result<String, AVRTestFailure> { BuiltFirmware.program("crashing") }

    @Test func aCrashingFirmwareHaltsTheBoardNotTheProcess() throws {
        let board = try AVRBoard(.init(firmwarePath: Self.crashing.get(), pace: .freeRunning))
        defer { board.stop() }
        board.start()
        let status = board.waitFor(timeout: .seconds(10)) { if case .halted = $0.state { true } else { false } }
        guard case .halted(let reason)? = status?.state else {
            Issue.record("still \(board.currentStatus.state)")
            return
        }
        #expect(reason.contains("crashed"))
    }

    /// simavr 1.6 performs a store beyond RAMEND after reporting the crash; it
    /// must land in the core's own data space, not in the process's heap (the
    /// crashing fixture once segfaulted the whole test run).
    @Test func everySixteenBitDataAddressIsInsideTheDataSpace() throws {
        for firmware in [try Self.crashing.get(), try SketchFixtures.bootEcho.get().hex] {
            let machine = try AVRMachine(.init(firmwarePath: firmware))
            #expect(machine.dataSpaceBytes >= 0x10000, "\(firmware): \(machine.dataSpaceBytes) bytes")
        }
    }

    @Test func haltsWhenTheFirmwareStopsAndResetRestartsIt() throws {
        let board = try AVRBoard(.init(firmwarePath: Self.stopping.get(), pace: .freeRunning))
        defer { board.stop() }
        let client = try PtyPeer(opening: #require(board.serialPath), terminal: .asIs, keepText: true)
        board.start()
        let halted = board.waitFor(timeout: .seconds(10)) { if case .halted = $0.state { true } else { false } }
        #expect(halted != nil)
        #expect(client.readLine(timeout: .seconds(0.2)) == nil)  // no newline, but the byte came
        let before = board.currentStatus.bytesFromAVR
        #expect(before == 1)
        board.reset()
        let again = board.waitFor(timeout: .seconds(10)) { $0.bytesFromAVR == before + 1 && $0.state != .running }
        #expect(again != nil)
    }

    @Test func droppingTheLastReferenceEndsTheThreadAndHangsUp() throws {
        weak var weakBoard: AVRBoard?
        let client: PtyPeer
        do {
            let board = try AVRBoard(.init(firmwarePath: AVRTestFirmware.path(), pace: .realTime))
            client = try PtyPeer(opening: #require(board.serialPath), terminal: .asIs, keepText: true)
            board.start()
            #expect(board.waitFor(timeout: .seconds(10)) { $0.simulatedMicros > 5_000 } != nil)
            weakBoard = board
        }
        // The simulation thread lets go after its current iteration; the board's
        // deinit then closes the pty master, which the client sees as a hangup.
        #expect(client.readLine(timeout: .seconds(10)) { _ in false } == nil)
        #expect(client.gone)
        #expect(weakBoard == nil)
    }

    @Test func plugInOnAStoppedBoardSaysSo() throws {
        let board = try AVRBoard(.init(firmwarePath: AVRTestFirmware.path()))
        board.stop()
        #expect(throws: BoardLinkError.stopped) { try board.plugIn() }
    }
}
