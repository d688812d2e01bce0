// How fast the emulated boards run: long free-running and paced runs that a
// benchmark harness's iterations do not fit. Figures: docs/perf/avr.md, docs/perf/native.md.
//
//   cd Benchmarks
//   swift run -c release emulator-speed avr [firmware.elf]   # default ../Hardware/build/tiltserial.elf (make -C Hardware)
//   swift run -c release emulator-speed native
//   swift run -c release emulator-speed sketches [firmware.elf]   # tiltsim run's stepping: our firmware vs a 400 kHz bus sketch (make fixtures first)
import Foundation

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
    SketchSpeed.runAll(firmware: firmware, sketch: SketchSpeed.fixture(root: root))
default:
    print("usage: emulator-speed avr [firmware.elf] | emulator-speed native | emulator-speed sketches [firmware.elf]")
    exit(2)
}

/// User + system CPU of this whole process, in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
