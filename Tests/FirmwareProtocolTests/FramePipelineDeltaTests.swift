import FirmwareCore
import Testing

/// Only what changed goes out (src/core/tilt_pipe.c, docs/display.md "Only
/// what changed"): each page rendered is compared with the glass, unchanged
/// stretches worth a command are skipped, and the display's cursor decides
/// where a command is needed.
@Suite struct FramePipelineDeltaTests {
    typealias Transfer = (page: UInt8, step: tilt_pipe_step, column: UInt8, count: UInt8)
    /// 25.5 µs a byte in the pipe's unit (TILT_PIPE_BYTE_TIME_NS).
    static let byteTime = UInt16(25_500 / TILT_PIPE_BYTE_TIME_NS)

    /// A page whose columns `changed` differ from the glass (all zero).
    static func page(changing changed: [Range<Int>]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 128)
        for range in changed { for c in range { bytes[c] = 0xA5 } }
        return bytes
    }

    /// One frame: latches, renders each page compared with a blank glass
    /// (`compare` false: all columns sent), and sends with no sample due until
    /// the pipe is idle. The transfers in order.
    static func frame(_ pipe: inout tilt_pipe, pages: [[UInt8]], compare: Bool = true) -> [Transfer] {
        let glass = [UInt8](repeating: 0, count: 128)
        var transfers: [Transfer] = []
        #expect(tilt_pipe_wants_latch(&pipe, true))
        tilt_pipe_latched(&pipe)
        for _ in 0..<200 {
            let span = tilt_pipe_render_span(&pipe)
            if span > 0 {
                let page = Int(pipe.render_page), column = Int(pipe.render_column)
                pages[page].withUnsafeBufferPointer { fresh in
                    glass.withUnsafeBufferPointer { shown in
                        tilt_pipe_compared(&pipe, span, fresh.baseAddress! + column, compare ? shown.baseAddress! + column : nil)
                    }
                }
            }
            var count: UInt8 = 0
            let step = tilt_pipe_next(&pipe, TILT_PIPE_NO_DEADLINE, Self.byteTime, &count)
            if step != TILT_PIPE_WAIT {
                transfers.append((pipe.send_page, step, pipe.send_column, count))
                tilt_pipe_sent(&pipe, step, count)
            }
            if tilt_pipe_idle(&pipe) { break }
        }
        #expect(tilt_pipe_idle(&pipe))
        return transfers
    }

    static func pipe(continuous: Bool) -> tilt_pipe {
        var pipe = tilt_pipe()
        tilt_pipe_reset(&pipe)
        pipe.continuous = continuous
        tilt_pipe_set_byte_time(&pipe, Self.byteTime)
        return pipe
    }

    static let blank = [UInt8](repeating: 0, count: 128)

    @Test func aStretchThatChangedGoesOutAloneAtItsColumn() {
        var pipe = Self.pipe(continuous: false)
        let pages = [Self.page(changing: [40..<60])] + Array(repeating: Self.blank, count: 7)
        let transfers = Self.frame(&pipe, pages: pages)
        #expect(transfers.count == 1)
        #expect(transfers.first.map { $0.page == 0 && $0.step == TILT_PIPE_COMMAND && $0.column == 40 && $0.count == 20 } == true,
                "\(transfers)")
        #expect(pipe.frames == 1, "the frame is done")
    }

    @Test func aFrameWithNothingChangedSendsNothingAndIsDone() {
        var pipe = Self.pipe(continuous: true)
        let transfers = Self.frame(&pipe, pages: Array(repeating: Self.blank, count: 8))
        #expect(transfers.isEmpty)
        #expect(pipe.frames == 1)
    }

    /// Not compared (the glass not known): every page whole, as before.
    @Test func pagesNotComparedGoOutWhole() {
        var pipe = Self.pipe(continuous: true)
        let transfers = Self.frame(&pipe, pages: Array(repeating: Self.blank, count: 8), compare: false)
        #expect(transfers.map(\.count) == Array(repeating: 128, count: 8))
        #expect(transfers.map(\.step) == [TILT_PIPE_COMMAND] + Array(repeating: TILT_PIPE_DATA, count: 7))
    }

    /// A gap shorter than a command, a transfer's overhead and the loop's
    /// wait (6 + 3 + 12 bytes on the SH1106) is sent through; a longer one is
    /// skipped with a second command.
    @Test func shortGapsAreSentThroughAndLongOnesSkipped() {
        var pipe = Self.pipe(continuous: false)
        let shortest = Int(TILT_PIPE_COMMAND_BYTES + TILT_PIPE_DATA_OVERHEAD + TILT_PIPE_SKIP_WAIT_BYTES)
        let a = 10..<20, b = 20 + shortest - 1..<40 + shortest, c = 40 + 2 * shortest..<128 - 10
        let pages = [Self.page(changing: [a, b, c])] + Array(repeating: Self.blank, count: 7)
        let transfers = Self.frame(&pipe, pages: pages)
        #expect(transfers.map(\.column) == [10, UInt8(c.lowerBound)], "\(transfers)")
        #expect(transfers.map(\.count) == [UInt8(b.upperBound - 10), UInt8(c.count)])
        #expect(transfers.allSatisfy { $0.step == TILT_PIPE_COMMAND })
    }

    /// The SSD1306's window: past a page's last column the cursor goes on at
    /// the window's first column of the next page, so data that starts there
    /// needs no command; data anywhere else does.
    @Test func theCursorRunsOnToTheWindowsColumnOfTheNextPage() {
        var pipe = Self.pipe(continuous: true)
        let pages = [Self.page(changing: [100..<128]), Self.page(changing: [100..<111]), Self.page(changing: [0..<6])]
            + Array(repeating: Self.blank, count: 5)
        let transfers = Self.frame(&pipe, pages: pages)
        // Page 1's short tail (17 columns) is sent through, so the cursor wraps again.
        #expect(transfers.map(\.page) == [0, 1, 2], "\(transfers)")
        #expect(transfers.map(\.step) == [TILT_PIPE_COMMAND, TILT_PIPE_DATA, TILT_PIPE_COMMAND])
        #expect(transfers.map(\.column) == [100, 100, 0])
        #expect(transfers.map(\.count) == [28, 28, 6])
    }

    /// The SH1106's cursor runs off the glass at a page's end: every page's
    /// data gets its command, even where the same column follows.
    @Test func pageAddressingNeedsACommandForEveryPage() {
        var pipe = Self.pipe(continuous: false)
        let pages = [Self.page(changing: [100..<128]), Self.page(changing: [100..<128])] + Array(repeating: Self.blank, count: 6)
        let transfers = Self.frame(&pipe, pages: pages)
        #expect(transfers.map(\.step) == [TILT_PIPE_COMMAND, TILT_PIPE_COMMAND])
    }

    /// While a piece is on the bus, the interrupt may chain the next only
    /// where it follows on from the cursor.
    @Test func aChainedPieceFollowsOnFromTheCursor() {
        var pipe = Self.pipe(continuous: true)
        tilt_pipe_latched(&pipe)
        let pages = [Self.page(changing: [0..<60, 90..<128]), Self.page(changing: [0..<128])]
        let glass = Self.blank
        for page in pages {
            for column in stride(from: 0, to: 128, by: Int(TILT_PIPE_RENDER_SPAN)) {
                page.withUnsafeBufferPointer { fresh in
                    glass.withUnsafeBufferPointer { shown in
                        tilt_pipe_compared(&pipe, UInt8(TILT_PIPE_RENDER_SPAN), fresh.baseAddress! + column, shown.baseAddress! + column)
                    }
                }
            }
        }
        var count: UInt8 = 0, page: UInt8 = 0, column: UInt8 = 0, chained: UInt8 = 0
        #expect(tilt_pipe_next(&pipe, TILT_PIPE_NO_DEADLINE, Self.byteTime, &count) == TILT_PIPE_COMMAND && count == 60)
        // 20 of the 60 on the bus: the other 40 follow on.
        #expect(tilt_pipe_next_chained(&pipe, TILT_PIPE_COMMAND, 20, TILT_PIPE_NO_DEADLINE, Self.byteTime, &page, &column, &chained))
        #expect(page == 0 && column == 20 && chained == 40)
        // All 60: then a gap, which takes a command.
        #expect(!tilt_pipe_next_chained(&pipe, TILT_PIPE_COMMAND, 60, TILT_PIPE_NO_DEADLINE, Self.byteTime, &page, &column, &chained))
        tilt_pipe_sent(&pipe, TILT_PIPE_COMMAND, 60)
        #expect(tilt_pipe_next(&pipe, TILT_PIPE_NO_DEADLINE, Self.byteTime, &count) == TILT_PIPE_COMMAND && count == 38)
        #expect(pipe.send_column == 90)
        // Page 0's end: page 1 starts at the window's column (90), not 0: a command.
        #expect(!tilt_pipe_next_chained(&pipe, TILT_PIPE_COMMAND, 38, TILT_PIPE_NO_DEADLINE, Self.byteTime, &page, &column, &chained))
    }

    /// What pays for a comparison: its cost in bus time at the display's clock.
    @Test func theColumnsWorthSkippingFollowTheBusSpeed() {
        var pipe = Self.pipe(continuous: true)
        #expect(pipe.worth_skipping == 28, "700 µs at 25.5 µs a byte")
        tilt_pipe_set_byte_time(&pipe, 11_250 / UInt16(TILT_PIPE_BYTE_TIME_NS))
        #expect(pipe.worth_skipping == 63)
        tilt_pipe_set_sample_period(&pipe, 1_000)
        #expect(pipe.worth_skipping == 125, "twice the cost when the sensor samples at 1 kHz")
        #expect(pipe.span == TILT_PIPE_RENDER_SPAN / 2)
        tilt_pipe_set_sample_period(&pipe, 10_000)
        #expect(pipe.worth_skipping == 63 && pipe.span == TILT_PIPE_RENDER_SPAN)
        tilt_pipe_set_byte_time(&pipe, 2_000 / UInt16(TILT_PIPE_BYTE_TIME_NS))
        #expect(pipe.worth_skipping == 128, "at most a page")
        tilt_pipe_reset(&pipe)
        #expect(pipe.worth_skipping == 128, "kept by reset, as `continuous` is")
    }

    /// Comparing costs the board a second rendering: a page that skipped
    /// too little is not compared again for a few frames, then looked at again.
    @Test func aPageThatSkipsTooLittleIsComparedOnlyNowAndThen() {
        var pipe = Self.pipe(continuous: true)
        let busy = Self.page(changing: [0..<Int(TILT_PIPE_COLUMNS) - Int(pipe.worth_skipping) + 1])
        let quiet = Self.page(changing: [0..<10])
        var compared: [Bool] = []
        for _ in 0..<Int(TILT_PIPE_RECHECK_FRAMES) + 2 {
            #expect(tilt_pipe_wants_latch(&pipe, true))
            tilt_pipe_latched(&pipe)
            compared.append(tilt_pipe_compare_wanted(&pipe))
            var transfers = 0
            for _ in 0..<200 {
                let span = tilt_pipe_render_span(&pipe)
                if span > 0 {
                    let page = Int(pipe.render_page), column = Int(pipe.render_column)
                    let bytes = page == 0 ? busy : quiet
                    let wanted = tilt_pipe_compare_wanted(&pipe)
                    bytes.withUnsafeBufferPointer { fresh in
                        Self.blank.withUnsafeBufferPointer { shown in
                            tilt_pipe_compared(&pipe, span, fresh.baseAddress! + column, wanted ? shown.baseAddress! + column : nil)
                        }
                    }
                }
                var count: UInt8 = 0
                let step = tilt_pipe_next(&pipe, TILT_PIPE_NO_DEADLINE, Self.byteTime, &count)
                if step != TILT_PIPE_WAIT {
                    transfers += 1
                    tilt_pipe_sent(&pipe, step, count)
                }
                if tilt_pipe_idle(&pipe) { break }
            }
            #expect(tilt_pipe_idle(&pipe) && transfers > 0)
        }
        // Page 0 skipped one column too few at the first frame: compared again only RECHECK frames later.
        let recheck = Int(TILT_PIPE_RECHECK_FRAMES)
        #expect(compared == [true] + Array(repeating: false, count: recheck) + [true], "\(compared)")
        #expect(pipe.compare_wait.1 == 0, "page 1 skipped most of its columns: compared every frame")
    }
}
