import BoardEmulator
import Foundation
import SerialIO
import WireProtocol

/// The highest sample rate a `NativeBoard` sustains on a pty: one board paced to
/// real time, this thread reading it into a FrameDecoder, 4 s of wall time per
/// run. "Kept up" = no lost frames, no decode errors, no SAMPLE dropped unread.
enum NativeThroughput {
    static func runAll() {
        for rate in [1_000, 5_000, 10_000, 20_000, 40_000, 62_500] { run(rate: rate, pace: .realTime, seconds: 4) }
        for rate in [20_000, 40_000, 62_500] { run(rate: rate, pace: .realTime, seconds: 4, buffer: 65_536) }
        run(rate: 1_000, pace: .freeRunning, seconds: 4)
        tenBoardsAtOneKilohertz()
    }

    static func board(_ configuration: NativeBoard.Configuration) -> NativeBoard {
        do { return try NativeBoard(configuration) } catch {
            print("emulator-speed: \(error)")
            exit(1)
        }
    }

    static func run(rate: Int, pace: BoardPace, seconds: Double, buffer: Int = 4096) {
        var configuration = NativeBoard.Configuration(
            sampleRateHz: rate, pace: pace,
            motionSource: Motion(.script(Scenarios.tour), noise: SensorNoise(sampleRate: Double(rate))))
        configuration.outputBufferBytes = buffer
        let board = board(configuration)
        defer { board.stop() }
        guard let path = board.serialPath, let host = try? SerialPort.open(path: path) else {
            print("emulator-speed: cannot open the board's pty")
            exit(1)
        }
        defer { host.close() }
        var decoder = FrameDecoder()
        var bytes = [UInt8](repeating: 0, count: 4096)
        let cpuBefore = cpuSeconds()
        let started = Date()
        board.start()
        while Date().timeIntervalSince(started) < seconds {
            guard (try? host.waitReadable(timeout: .milliseconds(100))) == true else { continue }
            let n = bytes.withUnsafeMutableBytes { (try? host.read(into: $0)) ?? 0 }
            bytes.withUnsafeBytes { decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) { _ in } }
        }
        let wall = Date().timeIntervalSince(started)
        let cpu = cpuSeconds() - cpuBefore
        let status = board.currentStatus
        let c = decoder.counters
        let kept = c.lostFrames == 0 && c.errors == 0 && status.samplesDroppedUnread == 0
        print(String(format: "native rate=%d pace=%@ buffer=%d wall=%.2fs board=%.2fs decoded=%llu (%.0f/s) lost=%llu errors=%llu droppedUnread=%llu cpu=%.2fs (%.0f%% of one core) %@",
                     rate, "\(pace)", buffer, wall, Double(status.boardMicros) / 1e6, c.samplesDecoded, Double(c.samplesDecoded) / wall,
                     c.lostFrames, c.errors, status.samplesDroppedUnread, cpu, 100 * cpu / wall, kept ? "kept up" : "FELL BEHIND"))
    }

    static func tenBoardsAtOneKilohertz() {
        let boards = (0..<10).map { _ in board(.init(sampleRateHz: 1000, pace: .realTime, motionSource: ConstantMotionSource.faceUp)) }
        defer { boards.forEach { $0.stop() } }
        let cpuBefore = cpuSeconds()
        boards.forEach { $0.start() }
        _ = boards[0].waitFor(timeout: .seconds(4)) { _ in false }
        let cpu = cpuSeconds() - cpuBefore
        let sent = boards.map { $0.currentStatus.samplesSent + $0.currentStatus.samplesDroppedUnread }.reduce(0, +)
        print(String(format: "native 10 boards x 1 kHz, no reader: %llu samples in 4 s, cpu=%.2fs (%.0f%% of one core)", sent, cpu, cpu / 4 * 100))
    }
}
