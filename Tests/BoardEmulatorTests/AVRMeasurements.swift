import Foundation
import Testing
@testable import BoardEmulator
#if canImport(Glibc)
import Glibc
#endif

/// Figures for docs/perf/avr.md, not checks: run with
/// `AVR_MEASURE=1 swift test --filter AVRMeasurements` (optionally
/// `AVR_MEASURE_ELF=/path/to/firmware.elf`). Skipped otherwise.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["AVR_MEASURE"] != nil))
struct AVRMeasurements {
    var firmware: String {
        get throws { try ProcessInfo.processInfo.environment["AVR_MEASURE_ELF"] ?? AVRTestFirmware.path() }
    }

    func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    func run(_ pace: AVRPace, wallSeconds: Double, withClient: Bool) throws {
        let board = try AVRBoard(.init(firmwarePath: firmware, pace: pace))
        defer { board.stop() }
        let client = withClient ? try AVRPtyClient(path: #require(board.serialPath)) : nil
        let cpuBefore = cpuSeconds()
        board.start()
        let deadline = Date().addingTimeInterval(wallSeconds)
        var lines = 0
        while Date() < deadline {
            if let client {
                if client.readLine(timeout: deadline.timeIntervalSinceNow) != nil { lines += 1 }
            } else {
                _ = board.waitFor(timeout: .seconds(wallSeconds)) { _ in false }
            }
        }
        let report = board.speedReport()
        let cpu = cpuSeconds() - cpuBefore
        let status = board.currentStatus
        print(String(format: "AVR_MEASURE pace=%@ client=%@ simulated=%.3fs wall=%.3fs ratio=%.2f cpu=%.2fs (%.0f%%) lines=%d samples=%llu bytesFromAVR=%llu",
                     "\(pace)", withClient ? "yes" : "no", report.simulatedSeconds, report.wallSeconds, report.ratio,
                     cpu, 100 * cpu / report.wallSeconds, lines, status.sensorSamples, status.bytesFromAVR))
    }

    @Test func freeRunning() throws {
        try run(.freeRunning, wallSeconds: 5, withClient: true)
        try run(.freeRunning, wallSeconds: 5, withClient: false)
    }

    @Test func realTime() throws {
        try run(.realTime, wallSeconds: 5, withClient: true)
    }
}
