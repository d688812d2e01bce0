import Testing
import TiltCore
import WireProtocol
@testable import TiltPipeline

/// The host loop's decisions in virtual time: hello timeout, doze, reconnect,
/// the rule that a reopened device is not written to until it speaks, trouble news.
@Suite struct HostDriverTests {
    static let second: UInt64 = 1_000_000

    @Test func helloTimeoutFiresExactlyWhenDue() {
        var h = DriverHarness()
        h.clock = 7_000
        h.start()
        h.run(until: 60 * Self.second)
        let ending = h.ending
        #expect(ending?.failure == .noValidFrames(seen: .nothing, why: .timedOut(micros: 4 * Self.second)))
        #expect(ending?.summary.durationMicros == 4 * Self.second, "ends at the deadline, not a poll later")
        #expect(h.hostHellos == [7_000], "HOST_HELLO once, on open")
    }

    @Test func detectionGivingUpSaysHowManyBytesAndWhen() {
        var h = DriverHarness()
        h.start()
        let noise = (0..<100).map { i in (UInt64(200_000 + i * 10_000), [UInt8](repeating: 0x41 &+ UInt8(i % 20), count: 30) + [10]) }
        for (t, bytes) in noise { h.link.schedule(bytes, at: t) }
        h.run(until: 60 * Self.second)
        guard case .noValidFrames(.text, .detectionGaveUp(let bytes, let after))? = h.ending?.failure else {
            Issue.record("ending: \(String(describing: h.ending))")
            return
        }
        #expect(bytes == 2048)
        #expect(after < 4 * Self.second && after == h.ending?.summary.durationMicros)
    }

    @Test func stopEndsWithTheSummaryAndClosesThePort() {
        var h = DriverHarness()
        h.start()
        for (t, b) in BoardStream.samples(rateHz: 1000, seconds: 1) { h.link.schedule(b, at: t) }
        h.run(until: 2 * Self.second)
        let at = h.now
        h.feed { $0.stop(at: at, $1) }
        #expect(h.ending?.failure == nil)
        #expect(h.ending?.summary.counters.samples == 1000)
        #expect(h.actions.suffix(2).map(\.action).first == .closePort)
    }

    /// However the board's clock runs against the host's, and whatever rate it
    /// announces, dozing never lets a 4 KiB queue overflow; at 1 kHz it still
    /// wakes well under once a sample (about 6 times per 30-sample tick: one
    /// doze, then each sample within the margin, so the completing one is answered at once).
    @Test(arguments: [
        (1_000 as UInt64, 1.0, nil as UInt16?), (10_000, 1.0, nil), (20_000, 1.0, nil),
        (100, 5.0, nil), (1_000, 5.0, nil), (1_000, 0.2, nil), (1_000, 1.0, 10 as UInt16?), (2_000, 3.0, 50),
    ])
    func dozeNeverOverflowsTheQueue(rate: UInt64, speed: Double, announced: UInt16?) {
        var h = DriverHarness()
        h.start()
        for (t, b) in BoardStream.samples(rateHz: rate, seconds: 3, speed: speed, announced: announced) { h.link.schedule(b, at: t) }
        h.run(until: UInt64(3.5 / speed * 1_000_000) + Self.second)
        #expect(h.link.dropped == 0, "rate \(rate) Hz, board clock ×\(speed), announced \(String(describing: announced))")
        #expect(h.driver.session.counters.lostFrames == 0)
        #expect(h.driver.session.counters.samples == UInt64(Double(rate) * 3))
        if rate == 1_000 && speed == 1 && announced == nil {
            #expect(h.dozes > 0 && h.wakeUps < 3_000 / 4, "a few wake-ups a tick, not one a sample: \(h.wakeUps) wake-ups, \(h.dozes) dozes")
        }
    }

    /// At high sample rates the doze's margin and its shortest length follow
    /// the sample period: the loop wakes a few times a tick (the doze budget's
    /// drains, then the completing sample), not once for every sample that
    /// arrives in a fixed 200 µs margin or before a fixed 1 ms doze. Every tick
    /// is still answered the moment its completing sample arrives, and nothing
    /// overflows: a real port's tty (4 KiB) with the default 2 KiB budget, a
    /// pty (12 KiB before its writer must wait) with the pty's 8 KiB.
    @Test(arguments: [
        (100 as UInt64, 2048 as UInt64, 4096), (1_000, 2048, 4096), (5_000, 2048, 4096), (10_000, 2048, 4096), (20_000, 2048, 4096),
        (1_000, HostDriver.Configuration.pseudoTerminalDozeBufferBytes, 12_288),
        (10_000, HostDriver.Configuration.pseudoTerminalDozeBufferBytes, 12_288),
        (20_000, HostDriver.Configuration.pseudoTerminalDozeBufferBytes, 12_288),
    ])
    func wakeUpsPerTickStayFewAtEveryRate(rate: UInt64, budget: UInt64, queue: Int) {
        var c = HostDriver.Configuration()
        c.refreshMicros = 3_600_000_000  // no live view (as with --json): only the link wakes the loop
        c.dozeBufferBytes = budget
        var h = DriverHarness(configuration: c)
        h.link.capacity = queue
        h.start()
        let stream = BoardStream.samples(rateHz: rate, seconds: 3)
        for (t, b) in stream { h.link.schedule(b, at: t) }
        // Steady state: from 1 s (the link's byte rate and arrival offset are known) to 2.9 s.
        h.run(until: 1 * Self.second)
        let (wakeUpsBefore, actionsBefore) = (h.wakeUps, h.actions.count)
        h.run(until: 2_900_000)
        #expect(h.link.dropped == 0)
        let writes = h.actions[actionsBefore...].compactMap { a -> UInt64? in if case .write(.offsets) = a.action { a.at } else { nil } }
        #expect(writes.count >= 60)
        // A 30 ms tick of 23-byte samples needs this many drains of the budget
        // (the last one just before the tick is due); then the completing sample.
        let perTick = Double(h.wakeUps - wakeUpsBefore) / Double(writes.count)
        let drainsPerTick = (Double(rate * 23 * 30 / 1000) / Double(budget)).rounded(.up)
        #expect(perTick <= drainsPerTick + 1.05, "\(rate) Hz, \(budget) B: \(perTick) wake-ups a tick, \(drainsPerTick) drains")
        var late = 0
        for w in writes {
            let arrival = stream.last { $0.0 <= w }!.0
            if w != arrival { late += 1 }
        }
        #expect(late == 0, "\(rate) Hz: \(late) of \(writes.count) ticks answered after their sample's arrival")
    }

    /// A doze's wake-up comes late on a real machine (a timer's slack, an idle
    /// CPU's wake: 190 µs at the median on the VM of docs/perf/host.md, past
    /// the 200 µs margin). The driver learns how late from each doze's end and
    /// ends the next ones that much earlier (up to half a sample period), so
    /// every tick is still answered the moment its completing sample arrives,
    /// with no more wake-ups a tick.
    @Test(arguments: [(100 as UInt64, 300 as UInt64), (1_000, 250)])
    func lateWakeUpsAreLearnedSoTicksAreStillAnsweredOnArrival(rate: UInt64, lateness: UInt64) {
        var c = HostDriver.Configuration()
        c.refreshMicros = 3_600_000_000
        var h = DriverHarness(configuration: c)
        h.dozeLateness = lateness
        h.start()
        let stream = BoardStream.samples(rateHz: rate, seconds: 3)
        for (t, b) in stream { h.link.schedule(b, at: t) }
        h.run(until: 1 * Self.second)
        // Learned (a doze cut short by the harness's own 1 s boundary ends less late).
        #expect(h.driver.wakeUpLateness.micros > lateness / 2 && h.driver.wakeUpLateness.micros <= lateness)
        let (wakeUpsBefore, actionsBefore) = (h.wakeUps, h.actions.count)
        h.run(until: 2_900_000)
        let writes = h.actions[actionsBefore...].compactMap { a -> UInt64? in if case .write(.offsets) = a.action { a.at } else { nil } }
        #expect(writes.count >= 60)
        let late = writes.filter { w in stream.last { $0.0 <= w }!.0 != w }.count
        #expect(late == 0, "\(rate) Hz, dozes \(lateness) µs late: \(late) of \(writes.count) ticks answered after their sample's arrival")
        let perTick = Double(h.wakeUps - wakeUpsBefore) / Double(writes.count)
        #expect(perTick <= 2.05, "\(rate) Hz: \(perTick) wake-ups a tick (a doze, then the completing sample)")
    }

    @Test func wakeUpLatenessFollowsThePeakAndForgetsAnEighthADoze() {
        var l = WakeUpLateness()
        l.add(400)
        l.add(100)
        #expect(l.micros == 350)
        l.add(500)
        #expect(l.micros == 500)
        for _ in 0..<60 { l.add(0) }
        #expect(l.micros == 0)
    }

    /// The loop dozes from the first ticks on, before the link's own byte rate
    /// is measured (its first 100 ms): the line's rate (baud / 10) and HELLO's
    /// stand in for it. Before, it read every sample as it came for those
    /// 100 ms (about 100 wake-ups at 1 kHz in every run and after every replug).
    @Test func theLoopDozesBeforeTheLinksRateIsMeasured() {
        var c = HostDriver.Configuration()
        c.refreshMicros = 3_600_000_000
        var h = DriverHarness(configuration: c)
        h.start()
        for (t, b) in BoardStream.samples(rateHz: 1000, seconds: 1) { h.link.schedule(b, at: t) }
        h.run(until: 100_000)
        #expect(h.link.dropped == 0)
        #expect(h.dozes >= 2 && h.wakeUps <= 15, "\(h.wakeUps) wake-ups, \(h.dozes) dozes in the first 100 ms at 1 kHz")
    }

    @Test func everyTickIsAnsweredRightAfterTheSampleThatCompletesIt() {
        var h = DriverHarness()
        h.start()
        let stream = BoardStream.samples(rateHz: 1000, seconds: 2)
        for (t, b) in stream { h.link.schedule(b, at: t) }
        h.run(until: 3 * Self.second)
        // Each OFFSETS goes out at most the doze margin after the arrival of the sample that completed it.
        let writes = h.actions.compactMap { a -> UInt64? in if case .write(.offsets) = a.action { a.at } else { nil } }
        #expect(writes.count >= 60)
        var late = 0
        for w in writes {
            let arrival = stream.last { $0.0 <= w }!.0
            if w - arrival > 3_000 { late += 1 }
        }
        #expect(late == 0)
    }

    @Test func reconnectBacksOffAndWritesNothingUntilTheBoardSpeaks() {
        var c = HostDriver.Configuration()
        c.reopenFirstMicros = 250_000
        c.reopenMaxMicros = 2_000_000
        var h = DriverHarness(configuration: c)
        h.start()
        for (t, b) in BoardStream.samples(rateHz: 1000, seconds: 1) { h.link.schedule(b, at: t) }
        h.link.goneAt = 1_500_000
        h.link.backAt = 9_000_000
        h.run(until: 11 * Self.second)
        #expect(h.news.contains(.deviceGone(reconnecting: true)))
        // 250 ms, then doubling up to 2 s.
        let gaps = zip(h.openAttempts.dropFirst(), h.openAttempts).map { $0 - $1 }
        #expect(h.openAttempts.first.map { $0 - 1_500_000 } == 250_000)
        #expect(gaps.prefix(4) == [500_000, 1_000_000, 2_000_000, 2_000_000])
        #expect(h.openAttempts.last == 9_250_000, "\(h.openAttempts)")
        #expect(h.news.last == .reopened(verified: false))
        let writesBefore = h.written.count

        // The device is back but silent: nothing is written to it.
        h.run(until: 12 * Self.second)
        #expect(h.written.count == writesBefore)
        // It speaks: confirmed, greeted, and OFFSETS follow on the physics' timeline.
        for (t, b) in BoardStream.samples(rateHz: 1000, seconds: 1, hostStart: 12_100_000, boardStart: 90_000) { h.link.schedule(b, at: t) }
        h.run(until: 14 * Self.second)
        #expect(h.news.last == .boardConfirmed)
        let after = Array(h.written[writesBefore...])
        guard case .hostHello? = after.first?.frame else {
            Issue.record("first write after the reopen: \(String(describing: after.first))")
            return
        }
        #expect(after.count > 30)
        #expect(h.driver.session.counters.lostFrames == 0)
    }

    /// A dangling link that later names someone's terminal: the host opens it,
    /// hears only typing and prompts, and never writes a byte to it.
    @Test func aReopenedStrangerIsNeverWrittenTo() {
        var h = DriverHarness()
        h.start()
        for (t, b) in BoardStream.samples(rateHz: 1000, seconds: 1) { h.link.schedule(b, at: t) }
        h.link.goneAt = 1_500_000
        h.link.backAt = 2_000_000
        for i in 0..<200 {
            h.link.schedule(Array("user@host:~$ ls -la\r\n".utf8) + [0x1B, 0x5B, 0x41, 0, 3], at: 2_100_000 + UInt64(i) * 50_000)
        }
        h.run(until: 2_000_000)
        let writesBefore = h.written.count
        h.run(until: 30 * Self.second)
        #expect(h.written.count == writesBefore, "no byte written to a device that never sent a valid frame")
        #expect(h.news.contains(.reopened(verified: false)))
        #expect(!h.news.contains(.boardConfirmed))
    }

    @Test func aSilentReopenedDeviceIsReportedOnceAndLookedUpAgain() {
        var h = DriverHarness()
        h.start()
        for (t, b) in BoardStream.samples(rateHz: 1000, seconds: 1) { h.link.schedule(b, at: t) }
        h.link.goneAt = 1_500_000
        h.link.backAt = 1_700_000
        h.run(until: 20 * Self.second)
        let silent = h.news.filter { if case .silentAfterReopen = $0 { true } else { false } }
        #expect(silent == [.silentAfterReopen(micros: 4 * Self.second)])
        #expect(h.openAttempts.count >= 3, "the name is opened again after each silence: \(h.openAttempts)")
        #expect(h.news.filter { $0 == .reopened(verified: false) }.count == 1, "said once, not at every look-up: \(h.news)")
        #expect(h.ending == nil, "a silent device does not end the run")
    }

    @Test func withoutReconnectTheRunEndsWithDeviceGoneAndItsSummary() {
        var c = HostDriver.Configuration()
        c.reconnect = false
        var h = DriverHarness(configuration: c)
        h.start()
        for (t, b) in BoardStream.samples(rateHz: 1000, seconds: 1) { h.link.schedule(b, at: t) }
        h.link.goneAt = 1_500_000
        h.run(until: 5 * Self.second)
        #expect(h.ending?.failure == .deviceGone)
        #expect(h.ending?.summary.counters.samples == 1000)
        #expect(h.ending?.summary.durationMicros == 1_500_000)
    }

    @Test func troubleIsReportedAtMostOnceASecondWithWhatHappenedSince() {
        var h = DriverHarness()
        h.start()
        var stream = BoardStream.samples(rateHz: 1000, seconds: 5)
        for i in stride(from: 10, to: stream.count, by: 7) { stream[i].1[3] ^= 0x55 }  // damaged frames
        for i in stride(from: 13, to: stream.count, by: 50) { stream[i].1 = [] }  // lost frames
        for (t, b) in stream { h.link.schedule(b, at: t) }
        h.run(until: 7 * Self.second)  // the last report may wait out the interval after the stream's end
        let reports = h.actions.compactMap { a -> (UInt64, HostNews)? in if case .news(let n) = a.action, case .trouble = n { (a.at, n) } else { nil } }
        #expect((5...7).contains(reports.count), "\(reports.count) reports for 5 s of damage")
        for (a, b) in zip(reports, reports.dropFirst()) { #expect(b.0 - a.0 >= Self.second) }
        guard case .trouble(_, _, let lost, let errors)? = reports.last?.1 else { return }
        #expect(lost == h.driver.session.counters.lostFrames && errors == h.driver.session.counters.errors)
        #expect(lost > 0 && errors > 0)
    }

    @Test func refreshComesEveryPeriod() {
        var h = DriverHarness()
        h.start()
        for (t, b) in BoardStream.samples(rateHz: 1000, seconds: 2) { h.link.schedule(b, at: t) }
        h.run(until: 2 * Self.second)
        let refreshes = h.actions.filter { $0.action == .refresh }.map(\.at)
        #expect((9...10).contains(refreshes.count), "\(refreshes.count) refreshes in 2 s")
    }

    @Test func aVersionMismatchEndsTheRun() {
        var h = DriverHarness()
        h.start()
        h.link.schedule(Fixture.hello(version: WireFormat.version &+ 1).encoded(), at: 5_000)
        h.run(until: Self.second)
        #expect(h.ending?.failure == .protocolMismatch(board: WireFormat.version &+ 1, host: WireFormat.version))
    }

    @Test func aFireAsksForTheHookRightAfterItsEvent() {
        var h = DriverHarness()
        h.start()
        h.feed { $0.received(Fixture.hello().encoded(), at: HostTime(micros: 1), $1) }
        let pulled = Fixture.samples(900).wire  // tilts far enough to pull the ribbon
        h.feed { $0.received(pulled, at: HostTime(micros: 2), $1) }
        let fired = h.actions.firstIndex { if case .event(.fired) = $0.action { true } else { false } }
        let hook = h.actions.firstIndex { if case .runHook = $0.action { true } else { false } }
        if let fired, let hook {
            #expect(hook == fired + 1)
        } else {
            #expect(fired == nil && hook == nil, "a hook only with a fire")
        }
        #expect(h.actions.filter { if case .runHook = $0.action { true } else { false } }.count == Int(h.driver.session.counters.fires))
    }
}

