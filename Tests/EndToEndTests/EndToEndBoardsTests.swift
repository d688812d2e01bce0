@testable import BoardEmulator
import Foundation
import TestSupport
import Testing
import TiltCore
import WireProtocol

/// Our firmware built for other boards of the Arduino AVR core, run on their
/// chip in simavr (issue 22): the same HELLO, samples, waiting screen and
/// glass as on the Uno.
@Suite struct EndToEndBoardsTests {
    /// `make -C Hardware check` builds every board; the Mega's ELF goes to build/mega.
    static func megaELF() throws -> String {
        let path = Firmware.root + "/Hardware/build/mega/tiltserial.elf"
        guard FileManager.default.fileExists(atPath: path) else {
            throw E2EFailure("Hardware/build/mega/tiltserial.elf is missing: build it with make -C Hardware BOARD=mega (make test does)")
        }
        return path
    }

    /// `tiltsim --board mega` (EmulatedBoardFactory.board): the Mega's build from
    /// the source tree on the ATmega2560 core, found without a path.
    @Test func theFactoryRunsTheMegaBuildForBoardMega() throws {
        _ = try Self.megaELF()
        var factory = EmulatedBoardFactory(engine: .avr, pace: .freeRunning)
        factory.board = "mega"
        var notices: [String] = []
        let made = try factory.makeBoard(index: 0, linkPath: nil) { notices.append($0) }
        defer { made.stop() }
        #expect(notices.isEmpty, "\(notices)")
        let board = try #require(made as? AVRBoard, "the avr engine, not the native fallback")
        #expect(board.configuration.mcu == "atmega2560")
        #expect(board.configuration.firmwarePath.hasSuffix("Hardware/build/mega/tiltserial.elf"))
        let client = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        #expect(try client.read { $0.samples.count >= 10 })
        #expect(client.hellos.first?.status == 3)
    }

    /// The Mega 2560's sensor and display sit on its own TWI pins (20/21), which
    /// simavr's ATmega2560 core models with the same TWI unit.
    @Test func theFirmwareRunsOnAMega2560() throws {
        var configuration = AVRBoard.Configuration(firmwarePath: try Self.megaELF(), pace: .freeRunning,
                                                   motionSource: ConstantMotionSource.faceUp)
        configuration.mcu = "atmega2560"
        configuration.sensorInterruptPin = nil
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        let client = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        #expect(try client.read { $0.samples.count >= 50 })
        #expect(client.hellos.first?.status == 3, "sensor and display answered")
        #expect(client.hellos.first?.sampleRateHz == 100)
        #expect(client.samples.allSatisfy { $0.raw.accel.z == 16384 }, "face up at ±2 g")
        #expect(EndToEndFirmwareTests.sequenceIssues(client.frames).isEmpty)
        let waiting = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD"])
        #expect(board.waitFor(timeout: .seconds(20)) { $0.screen == waiting } != nil, "the waiting screen")
        let offsets = OffsetsFrame(sequence: 0, viewportX: 101, viewportY: 37, ribbonX: 250, ribbonBottom: 15, flags: [])
        try client.send(offsets)
        #expect(board.waitFor(timeout: .seconds(20)) { $0.screen == rendered(offsets) } != nil, "the view on the glass")
        try client.send(DescribeFrame())
        #expect(try client.read { $0.parts.count == 1 })
        #expect(client.parts.first == PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C))
    }
}
