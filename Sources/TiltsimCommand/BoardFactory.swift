import BoardEmulator
import Foundation

/// Makes the boards the options ask for; falls back from avr to native (with a
/// one-line notice) when the default firmware is missing and cannot be built.
struct BoardFactory {
    let engine: EngineOptions
    let motion: MotionOptions

    func makeBoards() throws(TiltsimFailure) -> [any SimulatedBoard] {
        let path = try motion.path()
        if engine.chosenEngine == .avr {
            if let board = try makeAVR(path) { return [board] }
        }
        return try makeNative(path)
    }

    /// nil: fall back to native (the notice is printed).
    private func makeAVR(_ path: Motion.Path) throws(TiltsimFailure) -> AVRBoard? {
        let firmware = engine.firmware ?? EngineOptions.defaultFirmware
        if !FileManager.default.fileExists(atPath: firmware) {
            guard engine.firmware == nil else {
                throw .file("\(firmware): no such firmware; build it with make -C Hardware or use --engine native")
            }
            if !Self.buildFirmware() {
                notice("firmware \(firmware) is missing and make -C Hardware could not build it; using the native engine")
                return nil
            }
        }
        do {
            let board = try AVRBoard(.init(
                firmwarePath: firmware, pace: engine.pace, linkPath: engine.linkPath(0, of: 1),
                motionSource: motion.source(path: path, rateHz: 100, seed: 0x5EED)))
            return board
        } catch .firmware(let reason) where engine.firmware == nil {
            notice("cannot run \(firmware) in simavr (\(reason)); using the native engine")
            return nil
        } catch {
            throw .system(error.description)
        }
    }

    private func makeNative(_ path: Motion.Path) throws(TiltsimFailure) -> [any SimulatedBoard] {
        let count = engine.boards ?? 1
        let rate = engine.rate ?? 100
        let faults: FaultSpec
        do { faults = try engine.faultSpec } catch { throw .data("\(error)") }
        var boards: [NativeBoard] = []
        for index in 0..<count {
            var spec = faults
            spec.seed &+= UInt64(index)
            do {
                boards.append(try NativeBoard(.init(
                    sampleRateHz: rate, pace: engine.pace, linkPath: engine.linkPath(index, of: count),
                    motionSource: motion.source(path: path, rateHz: Double(rate), seed: 0x5EED &+ UInt64(index)),
                    faults: spec)))
            } catch {
                boards.forEach { $0.stop() }
                throw .system(error.description)
            }
        }
        return boards
    }

    /// Runs `make -C Hardware` when this looks like the source tree; true if the ELF now exists.
    static func buildFirmware() -> Bool {
        guard FileManager.default.fileExists(atPath: "Hardware/Makefile") else { return false }
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-C", "Hardware"]
        make.standardOutput = FileHandle.nullDevice
        make.standardError = FileHandle.nullDevice
        do { try make.run() } catch { return false }
        make.waitUntilExit()
        return make.terminationStatus == 0 && FileManager.default.fileExists(atPath: EngineOptions.defaultFirmware)
    }

    private func notice(_ message: String) {
        FileHandle.standardError.write(Data("tiltsim: \(message)\n".utf8))
    }
}
