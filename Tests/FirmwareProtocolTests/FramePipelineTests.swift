import FirmwareCore
import Testing

/// The firmware's display scheduling (src/core/tilt_pipe.c) driven from Swift:
/// the order of latches, renders and transfers, the pieces that fit before a
/// sample, and when READY is due.
@Suite struct FramePipelineTests {
    /// 400 kHz: nine 2.5 µs periods and about 3 µs of interrupt a byte.
    static let byteNanos: UInt32 = 25_500
    /// `byteNanos` in the pipe's unit (TILT_PIPE_BYTE_TIME_NS).
    static let byteTime = UInt16(byteNanos / UInt32(TILT_PIPE_BYTE_TIME_NS))

    /// A loop like the sketch's: latches whenever asked while `views` are
    /// left, renders a span a pass, and starts a transfer when the bus is
    /// free, with no sample due; a transfer takes 20 passes (a span's render
    /// takes one: the bus is the bottleneck, as on the board). Returns the
    /// transfers (page, step, count), and for each latch how many transfers
    /// had started and which page was on the bus then.
    static func run(views: Int, continuous: Bool = false) -> (transfers: [(page: UInt8, step: tilt_pipe_step, count: UInt8)], latches: [(started: Int, onBus: UInt8?)]) {
        var pipe = tilt_pipe()
        pipe.continuous = continuous
        tilt_pipe_reset(&pipe)
        #expect(pipe.continuous == continuous, "reset keeps the caller's mode")
        var transfers: [(page: UInt8, step: tilt_pipe_step, count: UInt8)] = []
        var latches: [(started: Int, onBus: UInt8?)] = []
        var inFlight: (step: tilt_pipe_step, count: UInt8, passes: Int)?
        var left = views
        for _ in 0..<10_000 {
            if tilt_pipe_wants_latch(&pipe, left > 0) {
                left -= 1
                latches.append((transfers.count, inFlight == nil ? nil : transfers.last?.page))
                tilt_pipe_latched(&pipe)
            }
            let span = tilt_pipe_render_span(&pipe)
            if span > 0 { tilt_pipe_rendered(&pipe, span) }
            if let flight = inFlight {
                if flight.passes > 1 {
                    inFlight?.passes -= 1
                } else {
                    tilt_pipe_sent(&pipe, flight.step, flight.count)
                    inFlight = nil
                }
            }
            if inFlight == nil {
                var count: UInt8 = 0
                let step = tilt_pipe_next(&pipe, TILT_PIPE_NO_DEADLINE, byteTime, &count)
                if step != TILT_PIPE_WAIT {
                    transfers.append((pipe.send_page, step, count))
                    inFlight = (step, count, 20)
                }
            }
            if left == 0 && inFlight == nil && tilt_pipe_idle(&pipe) { break }
        }
        return (transfers, latches)
    }

    @Test func aFrameIsEightPagesEachOneCommandWithTheWholePage() {
        let run = Self.run(views: 1)
        #expect(run.transfers.count == 8)
        #expect(run.transfers.map(\.page) == Array(0..<8))
        #expect(run.transfers.allSatisfy { $0.step == TILT_PIPE_COMMAND && $0.count == 128 })
        #expect(run.latches.map(\.started) == [0])
    }

    /// The SSD1306's horizontal addressing: the cursor runs on from page to
    /// page, so a frame opens with one (window) command and its other pages
    /// are data alone; every frame opens with its own.
    @Test func continuousModeSendsOneCommandAFrame() {
        let run = Self.run(views: 2, continuous: true)
        #expect(run.transfers.map(\.page) == (0..<2).flatMap { _ in Array(0..<8) })
        #expect(run.transfers.map(\.step) == (0..<2).flatMap { _ in [TILT_PIPE_COMMAND] + Array(repeating: TILT_PIPE_DATA, count: 7) })
        #expect(run.transfers.allSatisfy { $0.count == 128 })
        #expect(run.latches.map(\.onBus) == [nil, 7])
        // The window command's 9 bus bytes (SLA, control, 0x21 0 127 0x22 page 7, START/STOP) come off the first piece.
        var pipe = tilt_pipe()
        pipe.continuous = true
        tilt_pipe_reset(&pipe)
        tilt_pipe_latched(&pipe)
        for _ in 0..<16 { tilt_pipe_rendered(&pipe, 16) }  // pages 0 and 1
        var count: UInt8 = 0
        #expect(tilt_pipe_next(&pipe, 1_000, Self.byteTime, &count) == TILT_PIPE_COMMAND && count == 35 - 9 - 3)
        // READY counts no page command for pages 1..6: 7 pages of 131 bytes from the frame's start.
        #expect(tilt_pipe_bytes_to_latch(&pipe) == 9 + 7 * 131)
        tilt_pipe_sent(&pipe, TILT_PIPE_COMMAND, 128 - 5)
        tilt_pipe_sent(&pipe, TILT_PIPE_DATA, 5)
        #expect(pipe.send_page == 1 && pipe.page_open)
        #expect(tilt_pipe_bytes_to_latch(&pipe) == 6 * 131)
    }

    @Test func theNextViewIsLatchedWhenTheLastPageStartsGoingOut() {
        let run = Self.run(views: 3)
        #expect(run.transfers.count == 24)
        // The next view is latched while the frame's last page is on the bus.
        #expect(run.latches.map(\.started) == [0, 8, 16])
        #expect(run.latches.map(\.onBus) == [nil, 7, 7])
        #expect(run.transfers.map(\.page) == (0..<3).flatMap { _ in Array(0..<8) })
    }

    @Test func piecesFitTheTimeBeforeTheNextSample() {
        var pipe = tilt_pipe()
        tilt_pipe_reset(&pipe)
        tilt_pipe_latched(&pipe)
        for _ in 0..<8 { tilt_pipe_rendered(&pipe, 16) }
        var count: UInt8 = 0
        // 1 ms left, 100 µs margin, 25.5 µs a byte: 35 bytes; the command's 6 and a data transfer's 3 leave 26.
        #expect(tilt_pipe_bytes_fitting(1_000, Self.byteTime) == 35)
        #expect(tilt_pipe_next(&pipe, 1_000, Self.byteTime, &count) == TILT_PIPE_COMMAND && count == 26)
        tilt_pipe_sent(&pipe, TILT_PIPE_COMMAND, count)
        // The rest of the page in data pieces: 210 µs leave 4 bytes, 1 of data,
        // under the 2-byte minimum; 230 µs leave 5, 2 of data.
        #expect(tilt_pipe_next(&pipe, 210, Self.byteTime, &count) == TILT_PIPE_WAIT)
        #expect(tilt_pipe_next(&pipe, 230, Self.byteTime, &count) == TILT_PIPE_DATA && count == 2)
        #expect(tilt_pipe_next(&pipe, 2_000, Self.byteTime, &count) == TILT_PIPE_DATA && count == 71)
        tilt_pipe_sent(&pipe, TILT_PIPE_DATA, count)
        #expect(tilt_pipe_next(&pipe, 5_000, Self.byteTime, &count) == TILT_PIPE_DATA && count == 128 - 26 - 71)
        // A sample due right now: nothing goes.
        #expect(tilt_pipe_next(&pipe, 50, Self.byteTime, &count) == TILT_PIPE_WAIT)
    }

    /// A piece that does not finish its page is sized without a division
    /// (shift and subtract): the same count as `tilt_pipe_bytes_fitting`'s
    /// division gives, at every clock and every time left before the sensor.
    /// (90 800 ns: 100 kHz; 131 070 ns: the most 16 bits of the pipe's unit carry.)
    @Test(arguments: [UInt32(2_260), 11_250, 22_500, 25_500, 65_534, 90_800, 131_070])
    func shortPiecesAreSizedAsTheDivisionWould(byteNanos: UInt32) {
        let byteTime = UInt16(byteNanos / UInt32(TILT_PIPE_BYTE_TIME_NS))
        for open in [false, true] {
            for column in stride(from: 0 as UInt8, to: 128, by: 9) {
                var pipe = tilt_pipe()
                tilt_pipe_reset(&pipe)
                pipe.continuous = open
                tilt_pipe_latched(&pipe)
                for _ in 0..<8 { tilt_pipe_rendered(&pipe, 16) }
                if column > 0 { tilt_pipe_sent(&pipe, TILT_PIPE_COMMAND, column) }
                let command = pipe.page_open ? 0 : Int(open ? TILT_PIPE_WINDOW_BYTES : TILT_PIPE_COMMAND_BYTES)
                let rest = 128 - Int(pipe.send_column)
                for left in stride(from: Int32(0), through: 10_000, by: 7) {
                    var count: UInt8 = 0
                    let step = tilt_pipe_next(&pipe, left, byteTime, &count)
                    let fits = Int(tilt_pipe_bytes_fitting(left, byteTime))
                    var expected = 0
                    if fits >= rest + 3 + command {
                        expected = rest
                    } else if fits >= command {
                        let room = fits - command - 3
                        expected = room >= rest ? rest : room >= Int(TILT_PIPE_MIN_PIECE) ? room : 0
                    }
                    #expect(Int(count) == expected, "\(byteNanos) ns, column \(column), \(left) µs: \(count) (step \(step.rawValue)), the division says \(expected)")
                    if Int(count) != expected { return }
                }
            }
        }
    }

    @Test func readyIsDueOncePerFrameSixMillisecondsBeforeTheLatch() {
        var pipe = tilt_pipe()
        tilt_pipe_reset(&pipe)
        tilt_pipe_latched(&pipe)
        var readyAtPage: [UInt8] = []
        var until: UInt32 = 0
        for _ in 0..<100 {
            if tilt_pipe_ready_due(&pipe, Self.byteTime, 0, &until) {
                readyAtPage.append(pipe.send_page)
                // The latch is at most 6 ms of bus time away, and less than one
                // piece (35 bytes at 25.5 µs, 0.9 ms) closer than that.
                #expect(until <= 6_000 && until > 5_100, "\(until) µs")
                tilt_pipe_ready_sent(&pipe)
            }
            let span = tilt_pipe_render_span(&pipe)
            if span > 0 { tilt_pipe_rendered(&pipe, span) }
            var count: UInt8 = 0
            // 1 ms between samples: pages go out in pieces, so READY can fall mid-page.
            let step = tilt_pipe_next(&pipe, 1_000, Self.byteTime, &count)
            tilt_pipe_sent(&pipe, step, count)
            if tilt_pipe_idle(&pipe) { break }
        }
        #expect(readyAtPage.count == 1, "\(readyAtPage)")
        // Pages 5 and 6 are 2 × 137 bytes (7 ms) before page 7 starts: READY falls in page 5.
        #expect(readyAtPage.first == 5)
        #expect(tilt_pipe_idle_ready_due(&pipe, true, false))
        #expect(!tilt_pipe_idle_ready_due(&pipe, true, true), "a changed view: a frame comes, not idle")
        #expect(!tilt_pipe_idle_ready_due(&pipe, false, false), "none owed")
    }
}
