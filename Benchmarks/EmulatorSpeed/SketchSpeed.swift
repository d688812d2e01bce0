import BoardEmulator
import Foundation

/// `tiltsim run`'s speed: an `AVRMachine` stepped on this thread (no pty, no
/// pacing), as fast as it goes, in simulated seconds per wall second. Our
/// firmware (waiting for a host: sampling the MPU-6050 at 100 Hz, SAMPLE frames
/// out) and the `tilt_bar` fixture (Wire at 400 kHz, redrawing the SSD1306
/// without pause) run interleaved, round after round, so both see the same
/// machine load; the ratio of each round is what compares.
enum SketchSpeed {
    static let rounds = 7
    static let simulatedMicros: UInt64 = 3_000_000

    static func runAll(firmware: String, sketch: String) {
        var firmwareRates: [Double] = [], sketchRates: [Double] = [], ratios: [Double] = []
        for round in 1...rounds {
            let a = rate(firmware), b = rate(sketch)
            firmwareRates.append(a)
            sketchRates.append(b)
            ratios.append(b / a)
            print(String(format: "round %d: firmware %.2f, 400 kHz sketch %.2f simulated s per wall s (ratio %.2f)", round, a, b, b / a))
        }
        print(String(format: "firmware: median %.2f (%.2f–%.2f); 400 kHz sketch: median %.2f (%.2f–%.2f); sketch / firmware: median %.2f (%.2f–%.2f)",
                     median(firmwareRates), firmwareRates.min()!, firmwareRates.max()!,
                     median(sketchRates), sketchRates.min()!, sketchRates.max()!,
                     median(ratios), ratios.min()!, ratios.max()!))
    }

    /// Simulated seconds per wall second for one run of `simulatedMicros`.
    static func rate(_ path: String) -> Double {
        let machine: AVRMachine
        do { machine = try AVRMachine(.init(firmwarePath: path)) } catch {
            print("emulator-speed: \(error)")
            exit(1)
        }
        let start = Date()
        var bytes = 0
        while machine.simulatedMicros < simulatedMicros {
            machine.runBatch()
            bytes += machine.takeSerialOutput().count
        }
        let wall = Date().timeIntervalSince(start)
        precondition(bytes > 0, "\(path) printed nothing")
        return Double(machine.simulatedMicros) / 1e6 / wall
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// Builds the tilt_bar fixture with Hardware/sketch.mk; its ELF path.
    /// The tilt_bar fixture sketch, built by `make fixtures` (the tests' fixtures).
    static func fixture(root: String) -> String {
        let elf = root + "/Tests/BoardEmulatorTests/Fixtures/build/sketches/tilt_bar/tilt_bar.elf"
        guard FileManager.default.fileExists(atPath: elf) else {
            print("emulator-speed: no tilt_bar fixture at \(elf); build it with `make fixtures`")
            exit(1)
        }
        return elf
    }
}
