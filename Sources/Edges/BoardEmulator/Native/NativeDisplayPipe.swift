import FirmwareCore
import TiltDisplay
import WireProtocol

/// The firmware's step_display() in board time, for the native board: the
/// same `tilt_pipe` decisions (Hardware/tiltserial/src/core/tilt_pipe.c) over
/// a modelled 400 kHz bus, so the glass changes page by page at the
/// firmware's cadence and READY frames leave when the firmware would send
/// them (issue 19 item 5: the demo and the tests see the AVR engine's frame
/// rate). Rendering is instant here: the firmware renders the next page while
/// the bus carries the current one, so the bus sets the pace, not the renderer.
/// Only what changed goes out, compared with the glass itself where the
/// firmware compares with its redraw of the frame before (a scene's page over
/// a scene's page, when the pipe says it is worth it).
struct NativeDisplayPipe {
    /// Bus time per byte, ns, at the display's clock (TILT_DISPLAY_CLOCK_*):
    /// the firmware's i2c_display_byte_ns() on a 16 MHz board, nine SCL
    /// periods of 16 + 2 TWBR cycles and 0.8 µs of the driver's own per-byte
    /// time (most bytes are fed by polling): 23.3 µs at 400 kHz, 90.8 µs at 100.
    static func byteNanos(clock: UInt8) -> UInt32 {
        let hz = UInt32((DisplayClock(rawValue: clock) ?? .kilohertz400).hertz)
        let twbr = (16_000_000 / hz - 16) / 2
        return 9 * (16 + 2 * twbr) * 1000 / 16 + Self.byteStretchNanos
    }
    /// The firmware's DISPLAY_BYTE_STRETCH_NS (Hardware/tiltserial/config.h).
    static let byteStretchNanos: UInt32 = 800
    /// Bus time per byte now (`byteNanos(clock:)` of the firmware's clock in use).
    private var byteNanos = byteNanos(clock: UInt8(TILT_DISPLAY_CLOCK_400KHZ))
    /// `byteNanos` in the pipe's unit (TILT_PIPE_BYTE_TIME_NS).
    private var byteTime: UInt16 { UInt16(byteNanos / UInt32(TILT_PIPE_BYTE_TIME_NS)) }
    /// Bus time the sensor takes at each sample it reads, µs: INT_STATUS and
    /// the 14-byte burst from 0x3B (about 22 bus bytes at 23-25 µs, and the
    /// loop around them). At most half the time between two reads.
    static let sensorReadMicros: UInt64 = 600
    /// While the glass draws, the firmware reads a sample only if the last
    /// read was due at least this long before (its SENSOR_DRAWING_READ_SPACING_US
    /// less half a millisecond): at 1 kHz every other one.
    static let drawingReadSpacingMicros: UInt64 = 1500
    /// The spacing of the samples that take the bus while the glass draws
    /// (only then do they matter here), at 16 MHz: the period, or at 1 kHz two.
    static func busPeriod(samplePeriod period: UInt64) -> UInt64 {
        period == 0 ? 0 : period * ((drawingReadSpacingMicros + period - 1) / period)
    }
    /// The firmware reads the sensor at 1 kHz at most; above that (the native
    /// board may run faster) the sensor's reads are not modelled on the bus.
    static let shortestSensorPeriodMicros: UInt64 = 1000

    /// The glass now, in SSD1306 page layout.
    private(set) var glass = [UInt8](repeating: 0, count: Screen.byteCount)
    /// True when the last whole frame that reached the glass was a status screen.
    private(set) var glassShowsStatus = true
    /// Whole frames that reached the glass (their last page's last byte).
    private(set) var framesShown: UInt64 = 0
    private var pipe = tilt_pipe()
    private var now: UInt64 = 0
    private var inFlight = TILT_PIPE_WAIT
    private var piece = (page: 0, column: 0, count: 0)
    /// When the piece in flight started, and its bus bytes before its data (address, control, command).
    private var pieceStart: UInt64 = 0
    private var pieceHeaderBytes: UInt64 = 0
    private var busFreeAt: UInt64 = 0
    private var latched = [UInt8](repeating: 0, count: Screen.byteCount)
    private var latchedStatus = true
    /// The latched frame is the map's scene (not the status screen or the test pattern).
    private var latchedScene = false
    /// Per glass page: it shows a scene's page, so the next scene's is compared with it.
    private var glassScene = [Bool](repeating: false, count: Int(TILT_PIPE_PAGES))
    private var pages = [[UInt8]](repeating: [UInt8](repeating: 0, count: Screen.width), count: 2)
    private var pageStatus = [true, true]
    /// `pipe.frames` when last looked at.
    private var framesSeen: UInt8 = 0
    /// The page being rendered is compared with the glass.
    private var compared = false

    init() {
        tilt_pipe_reset(&pipe)
        pipe.continuous = true  // the SSD1306's horizontal addressing, as the firmware sets it
    }

    /// The board reset: nothing latched or in flight (the glass keeps its picture).
    mutating func reset(at t: UInt64) {
        tilt_pipe_reset(&pipe)
        framesSeen = pipe.frames
        glassScene = glassScene.map { _ in false }
        inFlight = TILT_PIPE_WAIT
        busFreeAt = t
        now = max(now, t)
    }

    /// Runs the pipeline from where it stopped to lifetime µs `t`; true when
    /// the glass changed. Samples fall at `nextSample` + k × `period` (nil: no
    /// sensor, the bus is the display's). `render` draws a latched view (nil:
    /// the status screen); `ready` sends READY for lifetime µs `at` (the coming
    /// latch, or now when idle).
    mutating func run(until t: UInt64, nextSample: UInt64?, period: UInt64, firmware: inout NativeFirmware,
                      render: (tilt_view?, DrawerScene) -> Screen, ready: (_ at: UInt64, _ idle: Bool) -> Void) -> Bool {
        var changed = false
        byteNanos = Self.byteNanos(clock: firmware.displayClock)
        tilt_pipe_set_byte_time(&pipe, byteTime)
        tilt_pipe_set_sample_period(&pipe, nextSample == nil ? 0 : UInt32(clamping: period))
        let samples = period >= Self.shortestSensorPeriodMicros ? nextSample : nil
        let busPeriod = Self.busPeriod(samplePeriod: period)
        let read = min(Self.sensorReadMicros, busPeriod / 2)
        while true {
            if inFlight != TILT_PIPE_WAIT && busFreeAt <= now {
                let from = piece.page * Screen.width + piece.column
                glass.replaceSubrange(from..<from + piece.count, with: pages[piece.page & 1][piece.column..<piece.column + piece.count])
                tilt_pipe_sent(&pipe, inFlight, UInt8(piece.count))
                noteFramesDone()
                inFlight = TILT_PIPE_WAIT
                if piece.count > 0 { changed = true }
            }
            var sample: UInt64?
            if let first = samples {
                // The first sample whose read has not ended by now.
                let done = now >= first + read ? (now - first - read) / busPeriod + 1 : 0
                sample = first + done * busPeriod
            }
            if inFlight == TILT_PIPE_WAIT && busFreeAt <= now {
                var left = TILT_PIPE_NO_DEADLINE
                if let sample {
                    let window = Int64(min(period / 8, 100))
                    left = Int32(clamping: Int64(sample) - window - Int64(now) + Int64(TILT_PIPE_SAMPLE_MARGIN_US))
                }
                var count: UInt8 = 0
                let step = tilt_pipe_next(&pipe, left, byteTime, &count)
                if step != TILT_PIPE_WAIT {
                    piece = (Int(pipe.send_page), Int(pipe.send_column), Int(count))
                    var header = count > 0 ? UInt64(TILT_PIPE_DATA_OVERHEAD) : 0
                    if step == TILT_PIPE_COMMAND { header += UInt64(pipe.continuous ? TILT_PIPE_WINDOW_BYTES : TILT_PIPE_COMMAND_BYTES) }
                    let bytes = header + UInt64(count)
                    inFlight = step
                    pieceStart = now
                    pieceHeaderBytes = header
                    busFreeAt = now + (bytes * UInt64(byteNanos) + 999) / 1000
                }
            }
            var readyAt: UInt64?  // when the coming latch is READY's lead away, if later than now
            if firmware.syncOn {
                var untilLatch: UInt32 = 0
                let sent = sentOfPiece
                if tilt_pipe_ready_due(&pipe, byteTime, sent, &untilLatch) {
                    ready(now + UInt64(untilLatch), false)
                    tilt_pipe_ready_sent(&pipe)
                } else if tilt_pipe_idle_ready_due(&pipe, firmware.idleReadyOwed, firmware.redrawDue) {
                    ready(now, true)
                    firmware.idleReadySent()
                } else if !pipe.ready_sent && pipe.pending > 0 && inFlight != TILT_PIPE_WAIT {
                    let lead = UInt64(TILT_PIPE_READY_LEAD_US) * 1000
                    let ns = UInt64(tilt_pipe_ns_to_latch(&pipe, byteTime, sent))
                    if ns > lead { readyAt = now + (ns - lead + 999) / 1000 }
                }
            }
            if tilt_pipe_wants_latch(&pipe, firmware.redrawDue) {
                let redraw = firmware.takeRedraw()
                latched = (redraw.still ?? render(redraw.view, redraw.scene)).bytes
                latchedStatus = redraw.view == nil && !firmware.showsPattern
                latchedScene = redraw.view != nil && redraw.still == nil
                tilt_pipe_latched(&pipe)
            }
            while true {
                let span = tilt_pipe_render_span(&pipe)
                guard span > 0 else { break }
                let page = Int(pipe.render_page), column = Int(pipe.render_column), count = Int(span)
                let from = page * Screen.width + column
                pages[page & 1].replaceSubrange(column..<column + count, with: latched[from..<from + count])
                pageStatus[page & 1] = latchedStatus
                if column == 0 {
                    compared = latchedScene && glassScene[page] && tilt_pipe_compare_wanted(&pipe)
                    glassScene[page] = latchedScene
                } else if compared {
                    compared = tilt_pipe_compare_wanted(&pipe)
                }
                if compared {
                    pages[page & 1].withUnsafeBufferPointer { fresh in
                        glass.withUnsafeBufferPointer { shown in
                            tilt_pipe_compared(&pipe, span, fresh.baseAddress! + column, shown.baseAddress! + from)
                        }
                    }
                } else {
                    tilt_pipe_rendered(&pipe, span)
                }
                noteFramesDone()
            }
            // The next moment anything can change: the transfer's end, or the
            // end of the sensor's read that keeps the next piece waiting.
            let next: UInt64
            if inFlight != TILT_PIPE_WAIT {
                next = min(busFreeAt, readyAt ?? .max)
            } else if pipe.pending > 0, let sample {
                next = max(sample + read, now + 1)
            } else {
                break
            }
            guard next <= t else { break }
            now = next
        }
        now = max(now, t)
        return changed
    }

    /// A frame's last page done (sent, or nothing in it changed): one more on the glass.
    private mutating func noteFramesDone() {
        guard pipe.frames != framesSeen else { return }
        framesShown += UInt64(pipe.frames &- framesSeen)
        framesSeen = pipe.frames
        glassShowsStatus = pageStatus[Int(TILT_PIPE_PAGES - 1) & 1]
    }

    /// Data bytes of the piece in flight already on the bus (the firmware's
    /// in_flight_sent(): the pipe counts a piece only when it ends).
    private var sentOfPiece: UInt16 {
        guard inFlight != TILT_PIPE_WAIT, now > pieceStart else { return 0 }
        let bytes = (now - pieceStart) * 1000 / UInt64(byteNanos)
        return UInt16(min(UInt64(piece.count), bytes > pieceHeaderBytes ? bytes - pieceHeaderBytes : 0))
    }

    /// Nothing latched, rendered or on its way: the glass shows the last view latched.
    var isIdle: Bool { withUnsafePointer(to: pipe) { tilt_pipe_idle($0) } }

    /// Lifetime µs at which the transfer in flight ends (nil: none, the
    /// pipeline waits for a sample's read or a new view): a free-running
    /// board with no samples left to send moves its clock there, so a frame
    /// still reaches the glass.
    var transferEnd: UInt64? { inFlight != TILT_PIPE_WAIT ? busFreeAt : nil }
}
