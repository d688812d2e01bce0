import BoardEmulator
import Foundation

/// `tiltsim run`'s speed: an `AVRMachine` stepped on this thread (no pty, no
/// pacing), as fast as it goes, in simulated seconds per wall second (and per
/// CPU second, which survives a shared machine's load better). Our firmware
/// (waiting for a host: sampling the MPU-6050 at 100 Hz, SAMPLE frames out),
/// the `tilt_bar` fixture (Wire at 400 kHz, redrawing the SSD1306 without
/// pause) and the same fixture with `Wire.setClock(100000)` run interleaved,
/// round after round, so all see the same machine load; the ratios of each
/// round to the firmware are what compare. The bus is timed from TWBR
/// (cbp_twi.c), so the share of simulated time the bus is busy is printed too.
enum SketchSpeed {
    static let rounds = 7
    static let simulatedMicros: UInt64 = 3_000_000

    struct Measure {
        var wallRate: Double
        var cpuRate: Double
        var busShare: Double
    }

    static func runAll(firmware: String, sketches: [(name: String, path: String)]) {
        let all = [("firmware", firmware)] + sketches
        var measures = [[Measure]](repeating: [], count: all.count)
        for round in 1...rounds {
            var line = "round \(round):"
            for (index, (name, path)) in all.enumerated() {
                let m = rate(path)
                measures[index].append(m)
                line += String(format: " %@ %.2f (cpu %.2f, bus %.0f%%)", name, m.wallRate, m.cpuRate, m.busShare * 100)
            }
            print(line)
        }
        let base = measures[0]
        for (index, (name, _)) in all.enumerated() {
            let wall = measures[index].map(\.wallRate), cpu = measures[index].map(\.cpuRate)
            var line = String(format: "%@: simulated s per wall s median %.2f (%.2f–%.2f), per CPU s %.2f (%.2f–%.2f), bus busy %.0f%%",
                              name, median(wall), wall.min()!, wall.max()!, median(cpu), cpu.min()!, cpu.max()!,
                              median(measures[index].map(\.busShare)) * 100)
            if index > 0 {
                let ratios = zip(measures[index], base).map { $0.wallRate / $1.wallRate }
                let cpuRatios = zip(measures[index], base).map { $0.cpuRate / $1.cpuRate }
                line += String(format: "; / firmware per round: wall %.2f (%.2f–%.2f), cpu %.2f (%.2f–%.2f)",
                               median(ratios), ratios.min()!, ratios.max()!, median(cpuRatios), cpuRatios.min()!, cpuRatios.max()!)
            }
            print(line)
        }
    }

    /// One run of `simulatedMicros`.
    static func rate(_ path: String) -> Measure {
        let machine: AVRMachine
        do { machine = try AVRMachine(.init(firmwarePath: path)) } catch {
            print("emulator-speed: \(error)")
            exit(1)
        }
        let start = Date(), cpuStart = cpuSeconds()
        var bytes = 0
        while machine.simulatedMicros < simulatedMicros {
            machine.runBatch()
            bytes += machine.takeSerialOutput().count
        }
        let wall = Date().timeIntervalSince(start), cpu = cpuSeconds() - cpuStart
        precondition(bytes > 0, "\(path) printed nothing")
        let simulated = Double(machine.simulatedMicros) / 1e6
        return Measure(wallRate: simulated / wall, cpuRate: simulated / cpu,
                       busShare: Double(machine.busCycles) / (simulated * 16e6))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Builds the tilt_bar fixture with Hardware/sketch.mk, as is (400 kHz) and
    /// as a copy with `Wire.setClock(100000)`; their ELF paths.
    static func buildFixtures(root: String) -> [(name: String, path: String)] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-speed-\(getpid())").path
        let source = "\(root)/Tests/BoardEmulatorTests/Fixtures/Sketches/tilt_bar"
        let slow = "\(out)/src/tilt_bar_100k"
        do {
            let text = try String(contentsOfFile: source + "/tilt_bar.ino", encoding: .utf8)
            let changed = text.replacingOccurrences(of: "Wire.setClock(400000)", with: "Wire.setClock(100000)")
            precondition(changed != text, "tilt_bar.ino no longer calls Wire.setClock(400000)")
            try FileManager.default.createDirectory(atPath: slow, withIntermediateDirectories: true)
            try changed.write(toFile: slow + "/tilt_bar_100k.ino", atomically: true, encoding: .utf8)
        } catch {
            print("emulator-speed: cannot make the 100 kHz copy of tilt_bar: \(error)")
            exit(1)
        }
        return [("tilt_bar 400 kHz", build(root: root, sketchDir: source, out: out + "/fast")),
                ("tilt_bar 100 kHz", build(root: root, sketchDir: slow, out: out + "/slow"))]
    }

    private static func build(root: String, sketchDir: String, out: String) -> String {
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-f", root + "/Hardware/sketch.mk", "SKETCH_DIR=\(sketchDir)", "OUT=\(out)"]
        make.standardError = FileHandle.nullDevice
        do { try make.run() } catch {
            print("emulator-speed: cannot run make: \(error)")
            exit(1)
        }
        make.waitUntilExit()
        guard make.terminationStatus == 0 else {
            print("emulator-speed: building \(sketchDir) failed; run scripts/install-deps")
            exit(1)
        }
        let name = URL(fileURLWithPath: sketchDir).lastPathComponent
        return "\(out)/\(name).elf"
    }
}
