import Foundation
import Testing
@testable import BoardEmulator

@Suite struct NativeFactoryTests {
    @Test func nativeEngineMakesANativeBoardWithItsRateAndFaults() throws {
        let factory = EmulatedBoardFactory(engine: .native, motion: .script(Scenarios.pull), sampleRateHz: 250,
                                           faults: FaultSpec(flipRate: 1e-3, seed: 9))
        let board = try factory.makeBoard(index: 2)
        defer { board.stop() }
        let native = try #require(board as? NativeBoard)
        #expect(native.configuration.sampleRateHz == 250)
        #expect(native.configuration.faults.seed == 11)  // offset by the board's index
        #expect(board.serialPath?.hasPrefix("/dev/pts/") == true)
        #expect(board.displayedScreen == native.screen)
    }

    @Test func aNamedFirmwareThatIsMissingOrNotAnELFIsAnErrorNotAFallback() throws {
        var notices: [String] = []
        let missing = EmulatedBoardFactory(engine: .avr, firmwarePath: "/nonexistent/tiltserial.elf")
        #expect { try missing.makeBoard { notices.append($0) } } throws: { error in
            (error as? EmulatedBoardFactory.Failure)?.kind == .missingFile
        }
        let notELF = FileManager.default.temporaryDirectory.appendingPathComponent("not-an-elf-\(getpid()).elf").path
        #expect(FileManager.default.createFile(atPath: notELF, contents: Data("hello".utf8)))
        defer { try? FileManager.default.removeItem(atPath: notELF) }
        let bad = EmulatedBoardFactory(engine: .avr, firmwarePath: notELF)
        #expect { try bad.makeBoard { notices.append($0) } } throws: { error in
            (error as? EmulatedBoardFactory.Failure)?.kind == .badFile
        }
        #expect(notices.isEmpty)
    }

    @Test func motionSourceAddsNoiseOnlyWhenAsked() {
        var quiet = EmulatedBoardFactory(motion: .script(Scenarios.rest), noiseScale: 0).motionSource(rateHz: 100)
        var noisy = EmulatedBoardFactory(motion: .script(Scenarios.rest), noiseScale: 1).motionSource(rateHz: 100)
        #expect(quiet.sample(atMicros: 0).accel == Pose.rest.accelCounts())
        let readings = (0..<20).map { noisy.sample(atMicros: UInt64($0) * 10_000).accel }
        #expect(Set(readings.map(\.x)).count > 1)
    }
}
