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

    /// A started harness whose board streams HELLO and `seconds` of samples at
    /// `rateHz`; the last sample's arrival.
    static func streaming(rateHz: UInt64 = 100, seconds: Double = 1) -> (DriverHarness, lastArrival: UInt64) {
        var h = DriverHarness()
        h.start()
        let stream = BoardStream.samples(rateHz: rateHz, seconds: seconds)
        for (t, b) in stream { h.link.schedule(b, at: t) }
        return (h, stream.last!.0)
    }

    @Test func aBoardThatFallsSilentIsNamedOnceOnTimeAndAgainWhenItStreams() {
        var (h, lastArrival) = Self.streaming()
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

    /// When a stopped host hears of its SIGCONT, after `fg`.
    enum Told: CaseIterable { case beforeItsTimer, afterItsTimer, never }

    /// The host stopped by Ctrl-Z for 4 s while the board streamed on: on
    /// `fg` its timer ends before it reads what queued (a sleep's wake-up),
    /// and the SIGCONT's byte on the wake-up pipe may be read before that or
    /// after. It names nothing either way: its wait ended 4 s later than it
    /// asked. It named the board silent and then "samples again, after 0.0 s
    /// without" when the byte came second (a tester's, in the live view).
    @Test(arguments: Told.allCases)
    func aHostStoppedByCtrlZDoesNotNameTheBoardSilent(told: Told) {
        var (h, _) = Self.streaming(seconds: 10)
        h.run(until: 2 * Self.second)
        _ = h.driver.nextWait(at: h.now)  // the wait it was in
        h.advance(to: 6 * Self.second)  // stopped: the board's samples queue up
        if told == .beforeItsTimer { let at = h.now; h.driver.resumed(at: at) }
        h.timePassed()
        if told == .afterItsTimer { let at = h.now; h.driver.resumed(at: at) }
        h.readQueue()
        h.run(until: 9 * Self.second)
        #expect(Self.watchNews(h).isEmpty, "\(Self.watchNews(h).map(\.news))")
        #expect(h.ending == nil)
    }

    /// Bytes that are no sample (the board now at another baud rate) are
    /// counted, so the line can point at the baud rate instead of the wiring.
    @Test func bytesThatAreNoSampleAreCounted() {
        var (h, lastArrival) = Self.streaming()
        for i in 1...30 { h.link.schedule([UInt8](repeating: 0xF0, count: 10) + [0], at: lastArrival + UInt64(i) * 100_000) }
        h.run(until: 5 * Self.second)
        let news = Self.watchNews(h)
        #expect(news.map(\.news) == [.samplesStopped(forMicros: 2 * Self.second, bytes: 20 * 11)], "the bytes up to the deadline, read before it is checked")
    }

    /// Valid frames of other types (a board whose sensor's reads stopped but
    /// which still answers PING) are told apart from garbage: the baud rate
    /// is right, so the line points at the sensor (it said "something else:
    /// check --baud" to an outside tester's board sending READYs).
    @Test func validFramesThatAreNoSampleAreCountedApart() {
        var (h, lastArrival) = Self.streaming()
        for i in 1...30 { h.link.schedule(PongFrame(token: UInt32(i)).encoded(), at: lastArrival + UInt64(i) * 100_000) }
        h.run(until: 5 * Self.second)
        let news = Self.watchNews(h)
        guard case .samplesStopped(_, let bytes, let frames)? = news.first?.news else {
            Issue.record("\(news)")
            return
        }
        #expect(frames == 20 && bytes == UInt64(20 * PongFrame(token: 1).encoded().count), "the frames up to the deadline")
    }

    /// A HELLO that says the sensor is not answering explains the silence
    /// itself (our firmware sends one when its sensor stops answering): no
    /// second line about it.
    @Test func aBoardWhoseSensorIsNotAnsweringIsNotNamedAgain() {
        var (h, lastArrival) = Self.streaming()
        h.link.schedule(Fixture.hello(rate: 100, status: 2).encoded(), at: lastArrival + 50_000)
        h.run(until: 8 * Self.second)
        #expect(Self.watchNews(h).isEmpty)
        #expect(h.driver.session.counters.hellos == 2)
    }

    /// A board that samples once a second is given four of its periods.
    @Test func aSlowBoardIsGivenFourPeriods() {
        var (h, lastArrival) = Self.streaming(rateHz: 1, seconds: 5)
        h.run(until: 15 * Self.second)
        let news = Self.watchNews(h)
        #expect(news.map(\.at) == [lastArrival + 4 * Self.second], "\(news)")
    }

    /// Bytes that waited for a host that could not run (stopped, suspended,
    /// starved of a core) are no silence of the board: what a read finds is
    /// taken before any stop is named, so a host back after 3 s says nothing.
    /// (A recording's gaps are not named either: a replay reads, never waits.)
    @Test func aHostThatCouldNotReadNamesNoStop() {
        var driver = HostDriver(session: Fixture.session(), configuration: HostDriver.Configuration())
        var news: [HostNews] = []
        let collect: (HostAction) -> Void = { if case .news(let n) = $0 { news.append(n) } }
        driver.portOpened(at: HostTime(micros: 0), collect)
        let stream = BoardStream.samples(rateHz: 100, seconds: 5)
        for (t, b) in stream where t < 1_000_000 { driver.received(b, at: HostTime(micros: t), collect) }
        // The host stops for 3 s; everything the board sent meanwhile is read at once.
        let back = HostTime(micros: 4_000_000)
        driver.received(stream.filter { $0.0 >= 1_000_000 && $0.0 < 4_000_000 }.flatMap(\.1), at: back, collect)
        driver.timePassed(at: back, collect)
        #expect(news.filter { if case .waitingForBoard = $0 { false } else { true } }.isEmpty, "\(news)")
    }
}
