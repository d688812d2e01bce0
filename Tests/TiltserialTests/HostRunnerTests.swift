import Foundation
import SerialIO
import TestSupport
import Testing
import TiltPipeline
import TiltserialCommand
import TiltserialSettings
import WireProtocol

/// The in-process API `tiltserial demo` uses: an already-open transport, sinks, a stop pipe.
@Suite struct HostRunnerTests {
    final class Events: @unchecked Sendable {
        let lock = NSLock()
        var events: [HostEvent] = []
        var statuses: [HostStatus] = []
        var summaryTicks: UInt64 = 0
    }

    @Test func runsOnAGivenTransportAndReportsThroughItsSinks() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let transport = try SerialPort.open(path: board.pty!.slavePath)
        let stop = try WakeUpPipe()
        let seen = Events()
        let done = DispatchSemaphore(value: 0)
        let result = Events()
        let thread = Thread {
            let sinks = HostSinks(
                onEvent: { event in seen.lock.withLock { seen.events.append(event) } },
                onStatus: { status in seen.lock.withLock { seen.statuses.append(status) } })
            var settings = HostSettings()
            settings.physics.mode = .recipe  // so the expected OFFSETS can be derived by hand
            let runner = try! HostRunner(options: HostRunOptions(port: link, settings: settings), sinks: sinks)
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
        #expect(seen.lock.withLock { seen.statuses } == [.waitingForBoard(port: link)])
        #expect(result.lock.withLock { result.summaryTicks } == UInt64(expected.count))
    }
}
