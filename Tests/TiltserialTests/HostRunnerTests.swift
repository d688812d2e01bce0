import Foundation
import SerialIO
import TestSupport
import Testing
import TiltPipeline
import TiltserialCommand
import TiltserialSettings
import WireProtocol

/// The in-process API `tiltserial demo` uses: an already-open transport, an output, a stop pipe.
@Suite struct HostRunnerTests {
    /// The test's `HostOutput`: keeps what the run reports, for the test thread.
    final class Events: HostOutput, @unchecked Sendable {
        let lock = NSLock()
        var events: [HostEvent] = []
        var linkNews: [HostNews] = []
        var openersSeen: [[DeviceOpener]] = []
        var refusals: [SerialError] = []
        var summaryTicks: UInt64 = 0

        func event(_ event: HostEvent) { lock.withLock { events.append(event) } }
        func news(_ news: HostNews) { lock.withLock { linkNews.append(news) } }
        func otherOpeners(_ others: [DeviceOpener]) { lock.withLock { openersSeen.append(others) } }
        func reopenRefused(_ error: SerialError) { lock.withLock { refusals.append(error) } }
    }

    @Test func runsOnAGivenTransportAndReportsThroughItsOutput() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let transport = try SerialPort.open(path: board.pty!.slavePath)
        let stop = try WakeUpPipe()
        let seen = Events()
        let done = DispatchSemaphore(value: 0)
        let result = Events()
        let thread = Thread {
            var settings = HostSettings()
            settings.physics.mode = .recipe  // so the expected OFFSETS can be derived by hand
            let runner = try! HostRunner(options: HostRunOptions(port: link, settings: settings), output: seen)
            let summary = try? runner.run(transport: transport, stop: stop)
            result.lock.withLock { result.summaryTicks = summary?.counters.ticks ?? 0 }
            done.signal()
        }
        thread.start()

        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.sendChunked(Stream.hello() + Stream.heldTilt(0..<600).wire)
        let expected = Stream.recipeOffsets(forHeldTilt: 600)
        #expect(expected.count == 19 && expected.last?.viewportX == 18 && expected.last?.viewportY == 9)
        #expect(try board.read { _ in board.offsets.count >= expected.count })
        stop.wake()
        #expect(done.wait(timeout: .now() + 10) == .success)

        #expect(board.offsets == expected)
        let events = seen.lock.withLock { seen.events }
        let ticks = events.compactMap { if case .tick(_, let wire) = $0 { wire.frame } else { nil } }
        #expect(ticks == expected)
        #expect(events.first == .formatDetected(.binaryProtocol))
        #expect(seen.lock.withLock { seen.linkNews } == [.waitingForBoard])
        #expect(seen.lock.withLock { seen.openersSeen }.isEmpty)
        #expect(result.lock.withLock { result.summaryTicks } == UInt64(expected.count))
    }

    /// After an unplug, the name comes back held by another program (a second
    /// tiltserial started meanwhile): the run says so once, and keeps trying.
    @Test func aReopenRefusedAsBusyIsSaidOnceAndTriedAgain() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        let transport = try SerialPort.open(path: board.pty!.slavePath)
        let stop = try WakeUpPipe()
        let seen = Events()
        let busy = SerialError.portBusy(port: link, holder: DeviceOpener(pid: 4242, command: "tiltserial"))
        let attempts = Events()  // its summaryTicks counts the reopen attempts
        let thirdAttempt = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let runner = try! HostRunner(options: HostRunOptions(port: link, settings: HostSettings()), output: seen, open: { _ throws(SerialError) in
                if attempts.lock.withLock({ attempts.summaryTicks += 1; return attempts.summaryTicks }) == 3 { thirdAttempt.signal() }
                throw busy
            })
            _ = try? runner.run(transport: transport, stop: stop)
            done.signal()
        }
        thread.start()

        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.sendChunked(Stream.hello() + Stream.heldTilt(0..<100).wire)
        board.close()  // unplugged
        let tried = thirdAttempt.wait(timeout: .now() + 60) == .success
        stop.wake()
        #expect(done.wait(timeout: .now() + 10) == .success)

        #expect(tried, "reopened with a backoff")
        #expect(seen.lock.withLock { seen.linkNews }.contains(.deviceGone(reconnecting: true)))
        #expect(seen.lock.withLock { seen.refusals } == [busy], "said once, whatever the number of tries")
    }
}
