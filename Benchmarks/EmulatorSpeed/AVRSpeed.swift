import BoardEmulator
import Foundation
import SerialIO

/// Simulated seconds per wall second (`AVRBoard.speedReport()`) and CPU, 5 s of
/// wall time per run, one board; "client" = this thread reads the pty.
enum AVRSpeed {
    static func runAll(firmware: String) {
        run(firmware, .freeRunning, seconds: 5, withClient: true)
        run(firmware, .freeRunning, seconds: 5, withClient: false)
        run(firmware, .realTime, seconds: 5, withClient: true)
    }

    static func run(_ firmware: String, _ pace: BoardPace, seconds: Double, withClient: Bool) {
        let board: AVRBoard
        do { board = try AVRBoard(.init(firmwarePath: firmware, pace: pace)) } catch {
            print("emulator-speed: \(error)")
            exit(1)
        }
        defer { board.stop() }
        let client = withClient ? board.serialPath.flatMap { try? SerialPort.open(path: $0) } : nil
        defer { client?.close() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var bytesRead = 0
        let cpuBefore = cpuSeconds()
        board.start()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let client {
                if (try? client.waitReadable(timeout: .milliseconds(100))) == true {
                    bytesRead += buffer.withUnsafeMutableBytes { (try? client.read(into: $0)) ?? 0 }
                }
            } else {
                _ = board.waitFor(timeout: .milliseconds(Int(max(1, deadline.timeIntervalSinceNow * 1000)))) { _ in false }
            }
        }
        let report = board.speedReport()
        let cpu = cpuSeconds() - cpuBefore
        let status = board.currentStatus
        print(String(format: "avr pace=%@ client=%@ simulated=%.3fs wall=%.3fs ratio=%.2f cpu=%.2fs (%.0f%% of one core) sim/cpu=%.1f samples=%llu bytesFromAVR=%llu read=%d",
                     "\(pace)", withClient ? "yes" : "no", report.simulatedSeconds, report.wallSeconds, report.ratio,
                     cpu, 100 * cpu / report.wallSeconds, report.simulatedSeconds / cpu, status.sensorSamples, status.bytesFromAVR, bytesRead))
    }
}
