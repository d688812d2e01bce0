import Foundation
import SerialIO
import TestSupport
import Testing
import TiltCore
@testable import TiltserialCommand
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

    /// A held tilt (Stream.heldTilt: 0.5 g sideways, 0.25 g past the rest pose) scrolls the view
    /// in smooth mode too; once `c` makes that pose the rest pose there is no tilt left, so
    /// the view holds still (docs/physics.md: tilt is measured from the rest pose, and the
    /// dead zone absorbs the low-pass filter's last count).
    @Test func cRecalibratesMidRunAndTheReplayDoesTheSame() throws {
        let link = tempPath("board"), record = tempPath("c.tiltrec")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--json", "--record", record])
        #expect(try board.read { _ in board.hostHellos == 1 })

        // Samples 0..<1500 end at board time 1 500 000 µs: ticks at 31 000 + 30 000 k, 49 of them.
        let ticksBefore = 49, ticksAll = 99
        try board.sendChunked(Stream.hello() + Stream.heldTilt(0..<1500).wire)
        #expect(try board.read { _ in board.offsets.count >= ticksBefore })
        let before = board.offsets
        #expect(before.last!.viewportX > before.first!.viewportX && before.last!.viewportY > before.first!.viewportY,
                "the held tilt scrolls toward the low side: \(before.first!) … \(before.last!)")

        var request = WakeRequest.recalibrate.rawValue
        #expect(write(host.stop.writeEnd.rawValue, &request, 1) == 1)
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("rest pose set to the current pose: ") },
                "the run says what it did: \(host.captured.err)")

        try board.sendChunked(Stream.heldTilt(1500..<3000).wire)
        #expect(try board.read { _ in board.offsets.count >= ticksAll })
        #expect(Array(board.offsets.prefix(ticksBefore)) == before)
        let after = board.offsets[ticksBefore...]
        #expect(after.allSatisfy { $0.viewportX == before.last!.viewportX && $0.viewportY == before.last!.viewportY },
                "the pose held after `c` is the rest pose: the view stays put")

        #expect(host.interrupt() == 0, "a request is not a stop; Ctrl-C still is")
        let replay = runTiltserial(["replay", record, "--json"])
        #expect(replay.code == 0)
        #expect(replay.out == host.captured.out, "the replay recalibrates at the same point")
        #expect(replay.err.contains("rest pose set to the current pose: "))
    }

    @Test func aRedrawRequestDoesNotStopTheRun() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link])
        #expect(try board.read { _ in board.hostHellos == 1 })
        var request = WakeRequest.redraw.rawValue  // as SIGWINCH sends it
        #expect(write(host.stop.writeEnd.rawValue, &request, 1) == 1)
        try board.sendChunked(Stream.hello() + Self.frames(0..<300))
        #expect(try board.read { _ in board.offsets.count >= 9 }, "still running after the redraw request")
        #expect(host.wait(seconds: 0) == nil)
        #expect(host.interrupt() == 0)
    }
}

/// The view's signal handlers post their requests on the run's wake-up pipe.
@Suite(.serialized) struct ViewSignalTests {
    @Test func resizeRedrawsAndHangUpStops() throws {
        let pipe = try WakeUpPipe()
        ViewSignals.install(wake: pipe, screen: -1)
        defer { ViewSignals.restore() }
        raise(SIGWINCH)
        #expect(pipe.nextByte() == WakeRequest.redraw.rawValue)
        raise(SIGHUP)
        #expect(pipe.nextByte() == WakeRequest.stop.rawValue)
        raise(SIGQUIT)
        #expect(pipe.nextByte() == WakeRequest.stop.rawValue)
    }
}
