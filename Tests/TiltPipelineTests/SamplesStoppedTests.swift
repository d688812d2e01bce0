import Testing
import TiltCore
import WireProtocol
@testable import TiltPipeline

/// A board that streamed and then stops while its port stays open (a sensor
/// wire come loose under firmware that does not say so, a hung sketch, a
/// board now at another baud rate) is named once, on time, in virtual time;
/// and again when its samples come back.
@Suite struct SamplesStoppedTests {
    static let second: UInt64 = 1_000_000

    /// News of a stop or a return, with the host time it was emitted at.
    static func watchNews(_ h: DriverHarness) -> [(at: UInt64, news: HostNews)] {
        h.actions.compactMap { entry in
            guard case .news(let news) = entry.action else { return nil }
            switch news {
            case .samplesStopped, .samplesResumed: return (entry.at, news)
            default: return nil
            }
        }
    }

    @Test func aBoardThatFallsSilentIsNamedOnceOnTimeAndAgainWhenItStreams() {
        var h = DriverHarness()
        h.start()
        let first = BoardStream.samples(rateHz: 100, seconds: 1)
        let lastArrival = first.last!.0
        for (t, b) in first { h.link.schedule(b, at: t) }
        // The same board streams on 5 s later, its sequence numbers going on.
        for (t, b) in BoardStream.samples(rateHz: 100, seconds: 1, hostStart: 6 * Self.second, boardStart: 5_000_000,
                                          firstSequence: 100, hello: false) { h.link.schedule(b, at: t) }
        let secondLast = 6 * Self.second + 100 + 99 * 10_000
        h.run(until: 10 * Self.second)
        let news = Self.watchNews(h)
        #expect(news.count == 3, "stopped, back, stopped again: \(news)")
        #expect(news.first?.at == lastArrival + 2 * Self.second, "named when 2 s passed, not at the next wake-up")
        #expect(news.first?.news == .samplesStopped(forMicros: 2 * Self.second, bytes: 0))
        guard news.count == 3, case .samplesResumed(let after) = news[1].news else {
            Issue.record("no return named: \(news)")
            return
        }
        #expect(after == 6 * Self.second + 100 - lastArrival)
        #expect(news[2].at == secondLast + 2 * Self.second, "armed again by the return")
        #expect(h.ending == nil, "the run goes on")
    }

    /// Bytes that are no sample (the board now at another baud rate) are
    /// counted, so the line can point at the baud rate instead of the wiring.
    @Test func bytesThatAreNoSampleAreCounted() {
        var h = DriverHarness()
        h.start()
        let first = BoardStream.samples(rateHz: 100, seconds: 1)
        let lastArrival = first.last!.0
        for (t, b) in first { h.link.schedule(b, at: t) }
        for i in 1...30 { h.link.schedule([UInt8](repeating: 0xF0, count: 10) + [0], at: lastArrival + UInt64(i) * 100_000) }
        h.run(until: 5 * Self.second)
        let news = Self.watchNews(h)
        #expect(news.map(\.news) == [.samplesStopped(forMicros: 2 * Self.second, bytes: 19 * 11)], "the bytes up to the deadline")
    }

    /// A HELLO that says the sensor is not answering explains the silence
    /// itself (our firmware sends one when its sensor stops answering): no
    /// second line about it.
    @Test func aBoardWhoseSensorIsNotAnsweringIsNotNamedAgain() {
        var h = DriverHarness()
        h.start()
        let first = BoardStream.samples(rateHz: 100, seconds: 1)
        for (t, b) in first { h.link.schedule(b, at: t) }
        h.link.schedule(Fixture.hello(rate: 100, status: 2).encoded(), at: first.last!.0 + 50_000)
        h.run(until: 8 * Self.second)
        #expect(Self.watchNews(h).isEmpty)
        #expect(h.driver.session.counters.hellos == 2)
    }

    /// A board that samples once a second is given four of its periods.
    @Test func aSlowBoardIsGivenFourPeriods() {
        var h = DriverHarness()
        h.start()
        let first = BoardStream.samples(rateHz: 1, seconds: 5)
        for (t, b) in first { h.link.schedule(b, at: t) }
        h.run(until: 15 * Self.second)
        let news = Self.watchNews(h)
        #expect(news.map(\.at) == [first.last!.0 + 4 * Self.second], "\(news)")
    }

    /// A replay (or a wait that ended late) names the stop when the next
    /// bytes show it, before the sample that ends it.
    @Test func aGapSeenOnlyAtTheNextReadIsNamedBeforeTheReturn() {
        var driver = HostDriver(session: Fixture.session(), configuration: HostDriver.Configuration())
        var news: [HostNews] = []
        let collect: (HostAction) -> Void = { if case .news(let n) = $0 { news.append(n) } }
        driver.portOpened(at: HostTime(micros: 0), collect)
        for (t, b) in BoardStream.samples(rateHz: 100, seconds: 0.5) { driver.received(b, at: HostTime(micros: t), collect) }
        let later = BoardStream.samples(rateHz: 100, seconds: 0.1, hostStart: 9 * Self.second, boardStart: 900_000,
                                        firstSequence: 50, hello: false)
        for (t, b) in later { driver.received(b, at: HostTime(micros: t), collect) }
        let watch = news.filter { if case .waitingForBoard = $0 { false } else { true } }
        guard watch.count == 2, case .samplesStopped(let stopped, 0) = watch[0], case .samplesResumed(let resumed) = watch[1] else {
            Issue.record("\(watch)")
            return
        }
        #expect(stopped == resumed && stopped > 8 * Self.second)
    }
}
