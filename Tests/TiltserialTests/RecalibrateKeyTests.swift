import Foundation
@testable import TiltserialCommand
import SerialIO
import Testing
import TiltCore
import WireProtocol

/// The live view's `c` as the run loop sees it: a request byte on the wake-up
/// pipe (what the key reader writes). The run recalibrates at once, says so,
/// records it, and a replay of the recording makes the same ticks.
@Suite(.serialized) struct RecalibrateKeyTests {
    static func frames(_ range: Range<Int>) -> [UInt8] {
        var wire: [UInt8] = []
        for i in range {
            SampleFrame(sequence: UInt8(truncatingIfNeeded: i), boardTime: 1000 + UInt32(i) * 1000, raw: Stream.raw(i)).encode(into: &wire)
        }
        return wire
    }

    @Test func cRecalibratesMidRunAndTheReplayDoesTheSame() throws {
        let link = tempPath("board"), record = tempPath("c.tiltrec")
        let board = try TestBoard(link: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--json", "--record", record])
        #expect(try board.waitFor { _ in board.hostHellos == 1 })

        let all = Stream.samples(0..<3000).samples
        let uncalibrated = Stream.expectedOffsets(all)
        let firstHalf = Stream.expectedOffsets(Array(all.prefix(1500)))
        try board.sendChunked(Stream.hello() + Self.frames(0..<1500))
        #expect(try board.waitFor { _ in board.offsets.count >= firstHalf.count })

        var request = WakeRequest.recalibrate.rawValue
        #expect(write(host.stop.writeEnd.rawValue, &request, 1) == 1)
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("rest pose set to the current pose: ") },
                "the run says what it did: \(host.captured.err)")

        try board.sendChunked(Self.frames(1500..<3000))
        #expect(try board.waitFor { _ in board.offsets.count >= uncalibrated.count })
        #expect(Array(board.offsets.prefix(firstHalf.count)) == firstHalf)
        #expect(board.offsets.suffix(from: firstHalf.count + 5) != uncalibrated.suffix(from: firstHalf.count + 5),
                "the new rest pose changed where the view went")

        #expect(host.interrupt() == 0, "a request is not a stop; Ctrl-C still is")
        let replay = runTiltserial(["replay", record, "--json"])
        #expect(replay.code == 0)
        #expect(replay.out == host.captured.out, "the replay recalibrates at the same point")
        #expect(replay.err.contains("rest pose set to the current pose: "))
    }

    @Test func aRedrawRequestDoesNotStopTheRun() throws {
        let link = tempPath("board")
        let board = try TestBoard(link: link)
        defer { board.close() }
        let host = InProcessHost(["run", link])
        #expect(try board.waitFor { _ in board.hostHellos == 1 })
        var request = WakeRequest.redraw.rawValue  // as SIGWINCH sends it
        #expect(write(host.stop.writeEnd.rawValue, &request, 1) == 1)
        try board.sendChunked(Stream.hello() + Self.frames(0..<300))
        #expect(try board.waitFor { _ in board.offsets.count >= 9 }, "still running after the redraw request")
        #expect(host.wait(seconds: 0) == nil)
        #expect(host.interrupt() == 0)
    }
}

/// The view's signal handlers post their requests on the run's wake-up pipe.
@Suite(.serialized) struct ViewSignalTests {
    static func next(_ pipe: WakeUpPipe) -> UInt8? {
        var p = pollfd(fd: pipe.readEnd.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 10_000) == 1 else { return nil }
        var byte: UInt8 = 0
        return read(pipe.readEnd.rawValue, &byte, 1) == 1 ? byte : nil
    }

    @Test func resizeRedrawsAndHangUpStops() throws {
        let pipe = try WakeUpPipe()
        ViewSignals.install(wake: pipe, screen: -1)
        defer { ViewSignals.restore() }
        raise(SIGWINCH)
        #expect(Self.next(pipe) == WakeRequest.redraw.rawValue)
        raise(SIGHUP)
        #expect(Self.next(pipe) == WakeRequest.stop.rawValue)
        raise(SIGQUIT)
        #expect(Self.next(pipe) == WakeRequest.stop.rawValue)
    }
}
