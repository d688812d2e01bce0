import Foundation
import Testing
import TiltPipeline
import TiltserialCommand
import WireProtocol
@testable import BoardEmulator

/// The host (HostRunner on the pty) against native boards at 1 kHz with 1 %
/// of the bytes corrupted: the host's counters equal what the boards injected,
/// with the accounting of docs/emulator.md (Fault injection).
@Suite struct EndToEndNativeTests {
    static let samples: UInt64 = 5_000  // 5 s of board time at 1 kHz

    /// flip + drop + insert + garbage = 1 % of the bytes, from just after the
    /// power-on HELLO to 4.9 s, so the HELLO and the last samples arrive intact.
    static func faults(seed: UInt64) -> FaultSpec {
        FaultSpec(flipRate: 3e-3, dropRate: 3e-3, insertRate: 3e-3, garbageRate: 1e-3,
                  garbageMaxLength: 24, seed: seed, activeFromMicros: 1, activeUntilMicros: 4_900_000)
    }

    struct Outcome {
        var seed: UInt64
        var status: NativeBoardStatus
        var caughtUp: Bool
        var summary: HostSummary
        var offsetsReceived: UInt64
    }

    /// One board and its host, run to the end (no expectations here: it may run off the test's task).
    static func run(seed: UInt64) throws -> Outcome {
        let board = try NativeBoard(.init(sampleRateHz: 1000, pace: .freeRunning,
                                          motionSource: Motion(.script(Scenarios.tour), noise: SensorNoise(sampleRate: 1000, seed: seed)),
                                          faults: faults(seed: seed), sampleLimit: samples))
        defer { board.stop() }
        // No HOST_HELLO: its answer would be a second HELLO inside the fault window.
        // Recipe mode: no SYNC, so the board sends no READY, whose place in the
        // stream would follow the threads' timing; the board's bytes, and so the
        // seeded faults in them, are then the same in every run (a broken
        // SAMPLE that passes its CRC, 1 in 65536, cannot come and go by chance).
        guard let path = board.serialPath else { throw E2EFailure("seed \(seed): the board has no pty") }
        let host = try RunningHost(port: path, keepEvents: false) {
            $0.timing.sendHostHello = false
            $0.timing.askForParts = false  // its PARTS, too, would land where the threads' timing puts it
            $0.settings.physics.mode = .recipe
        }
        defer { _ = host.finish() }
        guard host.waitFor(seconds: 10, { !$0.news.isEmpty }) != nil else { throw E2EFailure("seed \(seed): the host did not open the port") }
        board.start()

        // Free-running, the board waits for this host; it is done when every sample is accounted for.
        guard let status = board.waitFor(timeout: .seconds(60), { $0.samplesSent == samples }) else {
            throw E2EFailure("seed \(seed): the board did not send its \(samples) samples")
        }
        let caughtUp = host.waitFor(seconds: 60) { s in
            s.snapshot.map { $0.counters.decoder.samplesDecoded + $0.counters.lostFrames == samples } ?? false
        }
        guard let summary = host.finish() else { throw E2EFailure("seed \(seed): the host did not stop") }
        return Outcome(seed: seed, status: status, caughtUp: caughtUp != nil, summary: summary,
                       offsetsReceived: board.currentStatus.offsetsReceived)
    }

    static func check(_ outcome: Outcome) {
        let seed = outcome.seed, status = outcome.status, summary = outcome.summary
        #expect(outcome.caughtUp, "seed \(seed): the host accounts for every sample sent")
        let c = summary.counters.decoder, f = status.faults
        #expect(f.bitFlips > 0 && f.droppedBytes > 0 && f.insertedBytes > 0 && f.garbageRuns > 0)
        #expect(f.samplesHit > 100, "about one SAMPLE in five is hit")
        // Every sample that arrived whole is decoded (the decoder recovers frames
        // from damaged runs); none whose own bytes were broken is; every other
        // sample is counted lost.
        #expect(c.samplesDecoded >= f.samplesWhole, "seed \(seed)")
        #expect(c.samplesDecoded <= samples - f.samplesBroken, "seed \(seed)")
        #expect(f.samplesWhole + f.samplesBroken < samples, "seed \(seed): some samples lost only their delimiter")
        #expect(c.samplesDecoded + c.lostFrames == samples, "seed \(seed)")
        #expect(c.duplicates == 0)
        #expect(c.errors >= 1 && c.errors <= f.framesHit + f.zerosCreated, "seed \(seed): \(c.errors) error runs")
        #expect(summary.counters.hellos == 1 && summary.counters.samples == c.samplesDecoded)
        #expect(summary.counters.ticks > 100, "the physics ran on the surviving samples")
        #expect(status.samplesDroppedUnread == 0)
        // The board drew what the host sent.
        #expect(outcome.offsetsReceived > 0)
    }

    @Test func oneKilohertzWithOnePercentCorruptionCountsExactlyThroughTheHost() throws {
        Self.check(try Self.run(seed: 42))
    }

    @Test func threeBoardsAtOnceEachAgainstItsOwnHost() throws {
        // Threads, not tasks: each run blocks, and the cooperative pool has one thread per core.
        let seeds: [UInt64] = [11, 12, 13]
        let results = Results()
        let group = DispatchGroup()
        for seed in seeds {
            group.enter()
            Thread {
                let result = Result { try Self.run(seed: seed) }
                results.lock.withLock { results.outcomes[seed] = result }
                group.leave()
            }.start()
        }
        #expect(group.wait(timeout: .now() + 180) == .success)
        for seed in seeds {
            let outcome = try #require(results.lock.withLock { results.outcomes[seed] }).get()
            Self.check(outcome)
        }
    }

    final class Results: @unchecked Sendable {
        let lock = NSLock()
        var outcomes: [UInt64: Result<Outcome, any Error>] = [:]
    }
}
