import BoardEmulator
import Foundation
import TiltExitStatus

/// Makes the boards the options ask for (EmulatedBoardFactory does the engine
/// choice and the avr → native fallback, with a one-line notice).
struct BoardFactory {
    let engine: EngineOptions
    let motion: MotionOptions
    let wiring: BoardWiring
    /// Options only the firmware honours, when given (`Tiltsim.avrOnly`): no fallback to native then.
    var firmwareNeededBy: String?

    func makeBoards() throws(CommandFailure) -> [any EmulatedBoard] {
        let faults: FaultSpec
        do { faults = try engine.faultSpec } catch { throw .usage("\(error)") }
        var factory = EmulatedBoardFactory(
            engine: engine.chosenEngine == .avr ? .avr : .native, firmwarePath: engine.firmware, pace: engine.pace,
            motion: try motion.path(), noiseScale: motion.noise, sampleRateHz: engine.rate ?? 100, faults: faults,
            loopMotion: motion.loop, holdUntilOpened: !engine.runNow)
        wiring.apply(to: &factory)
        factory.board = engine.board?.rawValue ?? "uno"
        factory.firmwareNeededBy = firmwareNeededBy
        let count = engine.chosenEngine == .avr ? 1 : engine.boards ?? 1
        var boards: [any EmulatedBoard] = []
        for index in 0..<count {
            do {
                boards.append(try factory.makeBoard(index: index, linkPath: engine.linkPath(index, of: count)) { message in
                    StandardStreams.err("tiltsim: \(CommandFailure.shown(message))\n")
                })
            } catch {
                boards.forEach { $0.stop() }
                switch error.kind {
                case .missingFile, .badFile: throw .firmware(error.description)
                case .system: throw .emulator(error.description)
                }
            }
        }
        return boards
    }
}
