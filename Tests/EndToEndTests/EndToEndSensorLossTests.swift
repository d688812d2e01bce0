import Foundation
import Testing
import TestSupport
import TiltPipeline
import WireProtocol
@testable import BoardEmulator

/// The sensor's wires come off mid-run (a breadboard jumper come loose) and
/// go back: our firmware says so with a HELLO whose status has no sensor,
/// shows NO SENSOR on the glass, and when the sensor answers again (it probes
/// once a second) says HELLO again and streams from sequence 0, so the samples
/// it never took are not counted lost. Free-running; every wait is on board
/// time or on what arrived, with a timeout.
@Suite(.serialized) struct EndToEndSensorLossTests {
    static let noSensor = statusScreen([1: "TILTSERIAL 1.0.0", 3: "NO SENSOR", 5: "CHECK SDA A4 SCL A5"])

    @Test func theFirmwareSaysItsSensorStoppedAndStartsOverWhenItAnswers() throws {
        let (board, client) = try EndToEndFirmwareTests.connected()
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 5 })
        board.setSensorConnected(false)
        let off = board.currentStatus.simulatedMicros
        #expect(try client.read { $0.hellos.count >= 2 }, "a HELLO when the sensor stops answering")
        #expect(client.hellos.last?.status == 2, "only the display answers")
        #expect(board.waitFor(timeout: .seconds(20)) { $0.display.glass == Self.noSensor } != nil, "NO SENSOR on the glass")
        let samplesWhileOff = client.samples.count
        _ = try client.read { _ in board.currentStatus.simulatedMicros > off + 2_500_000 }
        #expect(client.samples.count <= samplesWhileOff + 1, "no samples while the wires are off")

        board.setSensorConnected(true)
        #expect(try client.read { $0.hellos.count >= 3 && $0.samples.count >= samplesWhileOff + 5 },
                "a HELLO when it answers again, then samples")
        #expect(client.hellos.last?.status == 3)
        #expect(EndToEndFirmwareTests.sequenceIssues(client.frames).isEmpty, "sequence 0 after each HELLO, no gap")
    }

    /// The host through it all: it names nothing on its own (the HELLO said
    /// why the samples stopped), counts nothing lost, and ticks on after.
    @Test func theHostCountsNothingLostAcrossIt() throws {
        let board = try Firmware.board()
        defer { board.stop() }
        let host = try RunningHost(port: try #require(board.serialPath))
        defer { _ = host.finish() }
        try EndToEndAVRTests.start(board, after: host)
        let streaming = try #require(host.waitFor { $0.ticks.count >= 20 })
        board.setSensorConnected(false)
        let off = board.currentStatus.simulatedMicros
        try #require(board.waitFor(timeout: .seconds(60)) { $0.simulatedMicros >= off + 2_500_000 } != nil)
        board.setSensorConnected(true)
        let back = try #require(host.waitFor { $0.hellos >= streaming.hellos + 2 && $0.ticks.count >= streaming.ticks.count + 40 },
                                "HELLO twice, then ticks again")
        let statuses = back.events.compactMap { if case .hello(let h) = $0 { h.status } else { nil } }
        #expect(statuses.suffix(2) == [2, 3], "\(statuses)")
        let summary = try #require(host.finish())
        #expect(summary.counters.lostFrames == 0, "\(summary.counters)")
        #expect(!back.news.contains { if case .samplesStopped = $0 { true } else { false } })
    }
}
