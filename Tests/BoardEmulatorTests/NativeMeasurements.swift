import Foundation
import Testing
import WireProtocol
@testable import BoardEmulator
#if canImport(Glibc)
import Glibc
#endif

/// Figures for docs/perf/native.md: run with
/// `NATIVE_MEASURE=1 swift test --filter NativeMeasurements`. Skipped otherwise.
/// Each run: one board on a pty, this thread reading it into a FrameDecoder.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["NATIVE_MEASURE"] != nil))
struct NativeMeasurements {
    func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Runs `seconds` of wall time; returns whether the host kept up (no loss, no errors).
    @discardableResult
    func run(rate: Int, pace: AVRPace, seconds: Double, buffer: Int = 4096) throws -> Bool {
        var configuration = NativeBoard.Configuration.test(
            rate: rate, pace: pace, motion: Motion(.script(Scenarios.tour), noise: SensorNoise(sampleRate: Double(rate))))
        configuration.outputBufferBytes = buffer
        let board = try NativeBoard(configuration)
        defer { board.stop() }
        let host = try HostEnd(try #require(board.serialPath))
        host.keepFrames = false
        let cpuBefore = cpuSeconds()
        let started = Date()
        board.start()
        try host.read(timeout: .milliseconds(Int(seconds * 1000))) { _ in false }
        let wall = Date().timeIntervalSince(started)
        let cpu = cpuSeconds() - cpuBefore
        let status = board.currentStatus
        let c = host.decoder.counters
        let kept = c.lostFrames == 0 && c.errors == 0 && status.samplesDroppedUnread == 0
        print(String(format: "NATIVE_MEASURE rate=%d pace=%@ buffer=%d wall=%.2fs board=%.2fs decoded=%llu (%.0f/s) lost=%llu errors=%llu droppedUnread=%llu cpu=%.2fs (%.0f%% of one core) %@",
                     rate, "\(pace)", buffer, wall, Double(status.boardMicros) / 1e6, c.samplesDecoded, Double(c.samplesDecoded) / wall,
                     c.lostFrames, c.errors, status.samplesDroppedUnread, cpu, 100 * cpu / wall, kept ? "kept up" : "FELL BEHIND"))
        return kept
    }

    @Test func pacedRates() throws {
        for rate in [1_000, 5_000, 10_000, 20_000, 40_000, 62_500] {
            try run(rate: rate, pace: .realTime, seconds: 4)
        }
    }

    @Test func pacedRatesWithA64KiBBuffer() throws {
        for rate in [20_000, 40_000, 62_500] {
            try run(rate: rate, pace: .realTime, seconds: 4, buffer: 65_536)
        }
    }

    @Test func freeRunning() throws {
        try run(rate: 1_000, pace: .freeRunning, seconds: 4)
    }

    @Test func tenBoardsAtOneKilohertz() throws {
        let boards = try (0..<10).map { _ in try NativeBoard(.test(rate: 1000, pace: .realTime, motion: ConstantMotionSource.faceUp)) }
        defer { boards.forEach { $0.stop() } }
        let cpuBefore = cpuSeconds()
        boards.forEach { $0.start() }
        _ = boards[0].waitFor(timeout: .seconds(4)) { _ in false }
        let cpu = cpuSeconds() - cpuBefore
        let sent = boards.map { $0.currentStatus.samplesSent + $0.currentStatus.samplesDroppedUnread }.reduce(0, +)
        print(String(format: "NATIVE_MEASURE 10 boards x 1 kHz, no reader: %llu samples in 4 s, cpu=%.2fs (%.0f%% of one core)", sent, cpu, cpu / 4 * 100))
        #expect(sent > 0)
    }
}
