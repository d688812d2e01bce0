import BoardEmulator
import Foundation
import TiltAssets
import TiltMotion
import WireProtocol

/// Motion to photon and the glass's frames/s (issue 19) with the real host:
/// our firmware in simavr at real time (`AVRBoard`, `.realTime`), the tour
/// motion from the sensor's first sample, and the built `tiltserial` binary
/// driving it through the board's pty as it would a real board. The figures
/// are board time (`AVRBoard.glassStats`); the host runs on the wall clock,
/// so they move a little with how fast it answers. docs/perf/render.md.
enum GlassStatsRun {
    /// One line and one JSON object per (firmware, sample rate), `repeats` times each, alternating.
    static func runAll(firmwares: [(label: String, path: String)], rates: [Int], repeats: Int, host: String) {
        let art: TiltAssets.Art
        do { art = try TiltAssets.load() } catch {
            print("emulator-speed: cannot load the art: \(error)")
            exit(1)
        }
        let motion = Motion(.script(Scenarios.tour))
        print("tour \(motion.duration) s of board time per run; host \(host)")
        for round in 1...repeats {
            for rate in rates {
                for firmware in firmwares {
                    guard let stats = run(firmware: firmware.path, rateHz: rate, host: host, art: art, motion: motion) else { continue }
                    print("round \(round) \(firmware.label) \(rate) Hz: \(stats.line)")
                    print("json {\"round\":\(round),\"firmware\":\"\(firmware.label)\",\"rateHz\":\(rate),\"stats\":\(stats.json)}")
                }
            }
        }
    }

    static func run(firmware: String, rateHz: Int, host: String, art: TiltAssets.Art, motion: Motion) -> GlassStats? {
        var configuration = AVRBoard.Configuration(firmwarePath: firmware, pace: .realTime,
                                                   motionSource: StartOnFirstSample(motion))
        configuration.holdInResetUntilOpened = true
        let board: AVRBoard
        do { board = try AVRBoard(configuration) } catch {
            print("emulator-speed: \(error)")
            return nil
        }
        defer { board.stop() }
        guard let path = board.serialPath else { return nil }
        board.recordGlassStats(renderer: art.renderer)
        board.start()
        if rateHz != 100, !configure(path: path, rateHz: rateHz, board: board) { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: host)
        process.arguments = ["run", path, "--no-config", "--view", "none"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            print("emulator-speed: cannot start \(host): \(error)")
            return nil
        }
        let start = board.currentStatus.simulatedMicros
        let samplesBefore = board.currentStatus.sensorSamples
        let end = start + motion.loopMicros + 1_000_000
        _ = board.waitFor(timeout: .seconds(Int64(motion.duration) + 60)) { $0.simulatedMicros >= end }
        let stats = board.glassStats
        let status = board.currentStatus
        process.terminate()
        process.waitUntilExit()
        let seconds = Double(status.simulatedMicros - start) / 1e6
        print(String(format: "  (sensor %.0f samples/s of board time over the run)", Double(status.sensorSamples - samplesBefore) / seconds))
        // Where motion to photon goes: the sample's age when the host's frame
        // began on the line (host side), and that frame's end to the glass (board side).
        func median(_ values: [UInt64]) -> Double {
            values.isEmpty ? 0 : Double(values.sorted()[values.count / 2]) / 1000
        }
        let measured = stats?.measured ?? []
        let hostSide = measured.compactMap { f in f.sampleMicros.map { f.offsetsStartMicros - $0 } }
        let boardSide = measured.map { $0.photonMicros - $0.offsetsEndMicros }
        print(String(format: "  (median: sample to the host's frame on the line %.1f ms, its end to the glass %.1f ms)",
                     median(hostSide), median(boardSide)))
        return stats
    }

    /// Opens the pty (which lets the board out of reset), sends CONFIGURE and
    /// waits 300 ms of board time for the new rate to take.
    private static func configure(path: String, rateHz: Int, board: AVRBoard) -> Bool {
        let fd = open(path, O_RDWR | O_NOCTTY)
        guard fd >= 0 else {
            print("emulator-speed: cannot open \(path)")
            return false
        }
        defer { close(fd) }
        var raw = termios()
        tcgetattr(fd, &raw)
        cfmakeraw(&raw)
        tcsetattr(fd, TCSANOW, &raw)
        let wire = ConfigureFrame(sampleRateHz: UInt16(rateHz), accelFullScaleSelect: 0, gyroFullScaleSelect: 0).encoded()
        let fed = board.currentStatus.bytesToAVR + UInt64(wire.count)
        guard wire.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == wire.count else { return false }
        guard let at = board.waitFor(timeout: .seconds(20), { $0.bytesToAVR >= fed }) else { return false }
        return board.waitFor(timeout: .seconds(20)) { $0.simulatedMicros >= at.simulatedMicros + 300_000 } != nil
    }
}
