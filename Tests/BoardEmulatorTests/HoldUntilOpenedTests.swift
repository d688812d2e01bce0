@testable import BoardEmulator
import Foundation
import TestSupport
import Testing
import TiltCore
#if canImport(Glibc)
import Glibc
#endif

/// Nothing lost at boot: a board held off until a host first opens its pty
/// starts then, so the host reads the firmware's first byte and the motion
/// from its start (issue 13 §4).
@Suite(.serialized) struct HoldUntilOpenedTests {
    /// Long enough that an unheld free-running board would have run for a while.
    static let quiet: Duration = .milliseconds(300)

    @Test func anAVRBoardHeldInResetBootsWhenAClientOpensThePty() throws {
        var configuration = try AVRBoard.Configuration(
            firmwarePath: AVRTestFirmware.path(), pace: .freeRunning, motionSource: TimeStampMotionSource())
        configuration.holdInResetUntilOpened = true
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        board.start()
        #expect(board.currentStatus.state == .waitingForHost)
        #expect(board.waitFor(timeout: Self.quiet) { $0.simulatedMicros > 0 || $0.bytesFromAVR > 0 } == nil,
                "a held board must not run")

        let client = try PtyPeer(opening: #require(board.serialPath), terminal: .asIs, keepText: true)
        // The very first bytes are the firmware's boot banner.
        #expect(client.readLine() == "W68")
        #expect(client.readLine() == "D")
        let line = try #require(client.readLine { $0.hasPrefix("S") })
        let bytes = try #require(line.sampleBytes)
        let sample = try #require(RawSample(burst: bytes))
        // Simulated time (what the motion is asked at) began at the open: the
        // first sample is 10 ms after the sensor woke, not 300 ms of waiting later.
        #expect(TimeStampMotionSource.time(of: sample) < 50_000)
        let status = board.currentStatus
        #expect(status.state == .running && status.hostConnected)
        #expect(status.droppedSerialOutput == 0)
    }

    @Test func anUnheldAVRBoardCountsWhatNoClientRead() throws {
        let board = try AVRBoard(.init(firmwarePath: AVRTestFirmware.path(), pace: .freeRunning,
                                       motionSource: ConstantMotionSource.faceUp))
        defer { board.stop() }
        board.start()
        let dropped = board.waitFor(timeout: .seconds(10)) { $0.droppedSerialOutput > 0 }
        #expect(dropped?.hostConnected == false)
        #expect(board.unreadOutput.count > 0 && board.unreadOutput.unit == "bytes")
    }

    @Test func aNativeBoardHeldOffSaysHelloWhenAHostOpensThePty() throws {
        var configuration = NativeBoard.Configuration.test(rate: 100, motion: TimeStampMotionSource(), limit: 5)
        configuration.holdUntilOpened = true
        let board = try NativeBoard(configuration)
        defer { board.stop() }
        board.start()
        #expect(board.currentStatus.state == .waitingForHost)
        #expect(board.waitFor(timeout: Self.quiet) { $0.hellosSent > 0 || $0.lifetimeMicros > 0 } == nil)

        let host = try PtyPeer(opening: try #require(board.serialPath))
        try host.read(timeout: .seconds(10)) { $0.samples.count == 5 }
        guard case .hello? = host.frames.first else {
            Issue.record("the first frame is not HELLO: \(host.frames.prefix(2))")
            return
        }
        // Board lifetime, and so the motion, started at the open.
        #expect(host.samples.map { TimeStampMotionSource.time(of: $0.raw) } == [10_000, 20_000, 30_000, 40_000, 50_000])
        #expect(board.currentStatus.state == .running)
        #expect(board.currentStatus.samplesDroppedUnread == 0)
    }

    /// Reset on connect (tiltsim's native board, an Uno's DTR): each host that
    /// opens the port sees the board boot, and nothing it sent while no host
    /// had the port open (a second host got 4 KiB of old samples at once).
    @Test func aNativeBoardThatResetsOnConnectBootsForEachHostAndKeepsNothingForTheNext() throws {
        var configuration = NativeBoard.Configuration.test(rate: 100, pace: .speed(4), motion: TimeStampMotionSource())
        configuration.holdUntilOpened = true
        configuration.resetOnConnect = true
        let board = try NativeBoard(configuration)
        defer { board.stop() }
        board.start()
        let path = try #require(board.serialPath)

        let first = try PtyPeer(opening: path)
        try first.read(timeout: .seconds(10)) { $0.samples.count >= 5 }
        let left = try #require(first.samples.last.map { TimeStampMotionSource.time(of: $0.raw) })
        first.close()
        // Board time runs on with no host: what it sends meanwhile is dropped and counted.
        let dropped = board.waitFor(timeout: .seconds(30)) { $0.samplesDroppedUnread >= 30 }
        #expect(dropped != nil)

        let second = try PtyPeer(opening: path)
        try second.read(timeout: .seconds(10)) { $0.samples.count >= 2 }
        guard case .hello? = second.frames.first else {
            Issue.record("the second host's first frame is not HELLO: \(second.frames.prefix(2))")
            return
        }
        #expect(second.samples.prefix(2).map(\.sequence) == [0, 1])
        #expect(second.samples[0].timeMicros == 10_000, "board time restarted")
        // The motion went on meanwhile: the second host's first sample is no old one.
        #expect(TimeStampMotionSource.time(of: second.samples[0].raw) >= left + 300_000)
        #expect(board.currentStatus.boots == 2)

        // A host that opens the port the moment the last one closed it boots it too.
        second.close()
        let third = try PtyPeer(opening: path)
        try third.read(timeout: .seconds(10)) { $0.samples.count >= 1 }
        guard case .hello? = third.frames.first else {
            Issue.record("the third host's first frame is not HELLO: \(third.frames.prefix(2))")
            return
        }
        #expect(third.samples[0].sequence == 0)
        #expect(board.currentStatus.boots == 3)
    }

    /// A host that opens the port for a moment (`stty -F`, a port probe)
    /// raises an Uno's DTR as any other: the held board starts. It stayed
    /// off, the open gone before the board looked.
    @Test func aHostThatOpensThePortForAMomentStartsAHeldBoard() throws {
        var avr = try AVRBoard.Configuration(firmwarePath: AVRTestFirmware.path(), pace: .realTime,
                                             motionSource: ConstantMotionSource.faceUp)
        avr.holdInResetUntilOpened = true
        let board = try AVRBoard(avr)
        defer { board.stop() }
        var native = NativeBoard.Configuration.test(rate: 100, pace: .realTime, motion: ConstantMotionSource.faceUp)
        native.holdUntilOpened = true
        native.resetOnConnect = true
        let model = try NativeBoard(native)
        defer { model.stop() }
        board.start()
        model.start()
        for path in [board.serialPath, model.serialPath] {
            let fd = open(try #require(path), O_RDWR | O_NOCTTY | O_CLOEXEC)
            try #require(fd >= 0)
            close(fd)
        }
        #expect(board.waitFor(timeout: .seconds(30)) { $0.state == .running && $0.simulatedMicros > 10_000 } != nil)
        #expect(model.waitFor(timeout: .seconds(30)) { $0.hellosSent == 1 && $0.samplesDroppedUnread > 0 } != nil)
        #expect(!board.currentStatus.hostConnected)
    }

    /// Hosts opening an Uno's port faster than its firmware reaches
    /// Serial.begin keep resetting it: its UART at UBRR 0 (1 Mbaud) was taken
    /// for the sketch's rate, and tiltsim said to use --baud 1000000.
    @Test func hostsOpeningThePortFasterThanTheBoardBootsAreNoBaudMismatch() throws {
        var configuration = try AVRBoard.Configuration(firmwarePath: AVRTestFirmware.path(), pace: .realTime,
                                                       motionSource: ConstantMotionSource.faceUp)
        configuration.resetOnConnect = true
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        board.start()
        let path = try #require(board.serialPath)
        // Opens and closes for 40 ms of board time (real time: each look sees one).
        var opens = 0, mismatch: BaudMismatch?
        while board.currentStatus.simulatedMicros < 40_000 {
            let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
            if fd >= 0 { close(fd) }
            opens += 1
            mismatch = mismatch ?? board.currentStatus.baudMismatch
        }
        #expect(mismatch == nil, "after \(opens) opens: \(String(describing: mismatch))")
        #expect(opens > 100)
    }

    @Test func aLoopingMotionStartsOverAfterEachRound() {
        let script = MotionScript(keys: [.init(0, Pose(back: 30)), .init(1, Pose(back: 30, right: 20))])
        var looping = Motion(.script(script), loops: true)
        var once = Motion(.script(script))
        #expect(looping.loopMicros == 1_000_000)
        #expect(looping.sample(atMicros: 2_250_000) == once.sample(atMicros: 250_000))
        #expect(once.sample(atMicros: 2_250_000) == once.sample(atMicros: 1_000_000))
        // Rows at 0 and 10 ms (relative): each holds 10 ms, a round is 20 ms.
        let rows = [TimedSample(timeMicros: 5_000, sequence: 0, raw: RawSample(accel: Axes3(x: 1, y: 0, z: 0))),
                    TimedSample(timeMicros: 15_000, sequence: 1, raw: RawSample(accel: Axes3(x: 2, y: 0, z: 0)))]
        var recorded = Motion(.recorded(rows), loops: true)
        #expect(recorded.loopMicros == 20_000)
        #expect(recorded.sample(atMicros: 35_000).accel.x == 2)
        #expect(recorded.sample(atMicros: 41_000).accel.x == 1)
    }
}
