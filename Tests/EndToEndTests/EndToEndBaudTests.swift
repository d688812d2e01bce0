import Foundation
import Testing
import TiltPipeline
import TiltserialCommand
@testable import BoardEmulator

/// A host at the wrong baud rate meets the emulated board as it would a real
/// one: our firmware's Uno talks at 115200, the host opens at 9600, and each
/// reads the other's bytes as garbage (`UARTResampler`), so the host ends
/// with its wrong-baud answer (exit 15, "binary bytes arrived … check the
/// baud rate") and the board says what the two sides set. Before, a pty took
/// any rate, and the mistake makers make most could not be rehearsed.
@Suite(.serialized) struct EndToEndBaudTests {
    @Test func aHostAtTheWrongBaudReadsGarbageAndSaysSo() throws {
        let board = try Firmware.board()
        defer { board.stop() }
        // The host opens the port itself, at its --baud (the default harness opens at 115200).
        let host = try RunningHost(port: try #require(board.serialPath), openItself: true) { $0.settings.baud = 9600 }
        try EndToEndAVRTests.start(board, after: host)
        let ended = try #require(host.waitFor(seconds: 60) { $0.finished }, "the host gives up")
        let failure = try #require(ended.failure as? Failure, "\(String(describing: ended.failure))")
        #expect(failure.code == .noValidFrames)
        #expect(failure.message.contains("binary bytes arrived but no valid frame") && failure.message.contains("check the baud rate (now 9600"),
                "\(failure.message)")
        #expect(board.currentStatus.baudMismatch == BaudMismatch(host: 9600, sketch: 115_200))
        #expect(ended.hellos == 0 && ended.ticks.isEmpty)
    }
}
