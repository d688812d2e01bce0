// How fast the emulated boards run: long free-running and paced runs that a
// benchmark harness's iterations do not fit. Figures: docs/perf/avr.md, docs/perf/native.md.
//
//   cd Benchmarks
//   swift run -c release emulator-speed avr [firmware.elf]   # default ../Hardware/build/tiltserial.elf (make -C Hardware)
//   swift run -c release emulator-speed native
//   swift run -c release emulator-speed sketches [firmware.elf]   # tiltsim run's stepping: our firmware vs a 400 kHz and a 100 kHz bus sketch
//   swift run -c release emulator-speed glass [label=firmware.elf ...]   # motion to photon with the real host (docs/perf/render.md)
//   swift run -c release emulator-speed glass-sim [label=firmware.elf ...]   # the same with the host's driver in simulated time (exact); env RATES, DOZE=on,off, REACT_US, LINE_BPS, DISPLAY_CLOCK=800k|1m, BOARD=leonardo|…, CONTROLLER=sh1106|ssd1306-128x32
import Foundation
import BoardEmulator

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "avr":
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let firmware = arguments.count > 1
        ? arguments[1]
        : source.appendingPathComponent("../../Hardware/build/tiltserial.elf").standardized.path
    guard FileManager.default.fileExists(atPath: firmware) else {
        print("emulator-speed: no firmware at \(firmware); build it with `make -C Hardware` or pass an ELF path")
        exit(1)
    }
    AVRSpeed.runAll(firmware: firmware)
case "native":
    NativeThroughput.runAll()
case "sketches":
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
    let firmware = arguments.count > 1 ? arguments[1] : root + "/Hardware/build/tiltserial.elf"
    guard FileManager.default.fileExists(atPath: firmware) else {
        print("emulator-speed: no firmware at \(firmware); build it with `make -C Hardware` or pass an ELF path")
        exit(1)
    }
    SketchSpeed.runAll(firmware: firmware, sketches: SketchSpeed.buildFixtures(root: root))
case "glass":
    // The tour with the built tiltserial on the board's pty: ../.build/release/tiltserial (swift build -c release).
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
    let environment = ProcessInfo.processInfo.environment
    let host = environment["TILTSERIAL"] ?? root + "/.build/release/tiltserial"
    let firmwares = arguments.count > 1
        ? arguments.dropFirst().map { argument -> (label: String, path: String) in
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : (argument, argument)
        }
        : [("main", root + "/Hardware/build/tiltserial.elf")]
    for (_, path) in firmwares + [("host", host)] where !FileManager.default.fileExists(atPath: path) {
        print("emulator-speed: no file at \(path); `make -C Hardware` builds the firmware, `swift build -c release` the host")
        exit(1)
    }
    let rates = (environment["RATES"] ?? "100,200,500,1000").split(separator: ",").compactMap { Int($0) }
    GlassStatsRun.runAll(firmwares: firmwares, rates: rates, repeats: Int(environment["REPEATS"] ?? "1") ?? 1, host: host)
case "glass-sim":
    // The tour with tiltserial's driver in simulated time: exact, load-free.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
    let environment = ProcessInfo.processInfo.environment
    guard let board = ArduinoBoard(rawValue: environment["BOARD"] ?? "uno") else {
        print("emulator-speed: BOARD is one of \(ArduinoBoard.allCases.map(\.rawValue).joined(separator: ", "))")
        exit(2)
    }
    let firmwares = arguments.count > 1
        ? arguments.dropFirst().map { argument -> (label: String, path: String) in
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : (argument, argument)
        }
        : [("main", root + "/Hardware/build/" + (board == .uno ? "" : board.rawValue + "/") + "tiltserial.elf")]
    for (_, path) in firmwares where !FileManager.default.fileExists(atPath: path) {
        print("emulator-speed: no firmware at \(path); `make -C Hardware BOARD=\(board.rawValue)` builds it")
        exit(1)
    }
    let rates = (environment["RATES"] ?? "100,1000").split(separator: ",").compactMap { Int($0) }
    let dozes = (environment["DOZE"] ?? "on,off").split(separator: ",").map { $0 == "on" }
    GlassSimRun.runAll(firmwares: firmwares, board: board, rates: rates,
                       reactMicros: UInt64(environment["REACT_US"] ?? "300") ?? 300, dozes: dozes)
default:
    print("usage: emulator-speed avr [firmware.elf] | emulator-speed native | emulator-speed sketches [firmware.elf] | emulator-speed glass [label=firmware.elf ...] | emulator-speed glass-sim [label=firmware.elf ...]")
    exit(2)
}

/// User + system CPU of this whole process, in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
