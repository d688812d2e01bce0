/* The display's frames on the I2C bus: when to latch a new view, which page
 * to render next, how much of a page fits on the bus before the sensor's next
 * sample is due, and when to send READY (docs/display.md, "Frame pipeline").
 * Pure decisions over integers: the firmware runs them against its TWI
 * driver, and tests run them from Swift (FirmwareCore).
 *
 * Two 128-byte page buffers: page p goes out of buffer p & 1 while page p + 1
 * is rendered into the other. The next frame's view is latched when the last
 * page of the current one starts going out, so its first page is rendered
 * while the bus is still busy and the bus never waits for the renderer.
 *
 * Only what changed goes out: each rendered column is compared with what the
 * glass shows there (the caller renders the glass's frame again, or passes
 * no comparison: the whole span), and a page's unchanged stretches too long
 * to be worth a new command are skipped; the display's cursor is tracked so
 * a command goes out only where the data does not follow on from it
 * (docs/display.md, "Only what changed"). */
#ifndef TILT_PIPE_H
#define TILT_PIPE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Pages of the 128 x 64 display, columns per page. */
#define TILT_PIPE_PAGES 8u
#define TILT_PIPE_COLUMNS 128u
/** Bus bytes of a page command transaction: SLA+W, control 0x00, B0|page,
 *  column low, column high, plus START and STOP (about one byte together). */
#define TILT_PIPE_COMMAND_BYTES 6u
/** Bus bytes of a frame's window command in continuous mode: SLA+W, control
 *  0x00, 0x21 0 127 (columns), 0x22 page 7 (pages), plus START and STOP. */
#define TILT_PIPE_WINDOW_BYTES 9u
/** Bus bytes a data transaction costs besides its data: SLA+W, control 0x40,
 *  START and STOP. */
#define TILT_PIPE_DATA_OVERHEAD 3u
/** A data piece shorter than this waits for a longer gap between samples
 *  (unless it ends the page). Two: a short piece's 3 bytes of overhead cost
 *  less than the bus left idle until the sensor's read (8 left up to 250 µs
 *  idle before each read: at 1 kHz 20.1 frames/s instead of 19.9,
 *  docs/perf/render.md). */
#define TILT_PIPE_MIN_PIECE 2u
/** The bus is left this long before a sample is due, for the sensor's read. */
#define TILT_PIPE_SAMPLE_MARGIN_US 100
/** READY goes out when the latch is this close (µs of bus time): time for
 *  READY to wait behind a SAMPLE in the TX buffer and cross the line (about
 *  2.8 ms at 115200 baud), the host's reaction and a 15-byte OFFSETS back
 *  (1.3 ms). At 3 ms the answer often came after the latch and waited a
 *  whole frame (docs/perf/render.md, "Motion to photon"). */
#define TILT_PIPE_READY_LEAD_US 6000u
/** Columns rendered per loop pass at most: bounded, so the loop comes back
 *  soon to start the next transfer and to poll the sensor, even when the
 *  drawer makes a page slow to render. Half that when the sensor samples
 *  more often than every TILT_PIPE_SHORT_SPAN_PERIOD_US: at 100 Hz 32
 *  columns a pass gave 0.6-0.9 more frames/s than 16 (fewer passes to pay
 *  for), at 1 kHz 16 gave 2 % more (docs/perf/render.md). */
#define TILT_PIPE_RENDER_SPAN 32u
#define TILT_PIPE_SHORT_SPAN_PERIOD_US 4000u
/** A page is compared whole in the next frame if the columns it skipped
 *  saved at least this much bus time, about what the second rendering and
 *  the comparison cost the AVR (docs/perf/render.md): 31 columns at 400 kHz,
 *  59 at 800 kHz, 72 at 1 MHz (23.3, 12.05 and 9.8 µs a byte); twice that
 *  when the sensor samples faster than every TILT_PIPE_SHORT_SPAN_PERIOD_US
 *  (61 columns at 400 kHz: the CPU is then the scarcer). Else,
 *  after TILT_PIPE_RECHECK_FRAMES frames, its first span is compared as a
 *  probe, and the rest of the page only if that span skipped its share. */
#define TILT_PIPE_COMPARE_COST_US 700u
#define TILT_PIPE_RECHECK_FRAMES 16u
/** An unchanged stretch shorter than a command, a data transfer's overhead
 *  and this many bus bytes is sent all the same: the bus waits for the loop
 *  to start a command (the interrupt chains only data that follows on). */
#define TILT_PIPE_SKIP_WAIT_BYTES 12u
/** Where the display's cursor is not known (tilt_pipe.cursor_column). */
#define TILT_PIPE_CURSOR_UNKNOWN 0xFFu
/** "No sample due": no sensor, the bus is the display's. */
#define TILT_PIPE_NO_DEADLINE INT32_MAX

typedef struct {
    /* Rendering the latched view. */
    bool rendering;         /* pages of the latched view are left to render */
    uint8_t render_page, render_column;
    /* Pages rendered and not yet fully sent (0..2): the buffers in use. */
    uint8_t pending;
    /* Per page buffer, bit c of byte c / 8: column c is to be sent (it
     * differs from the glass, or fills a gap too short to skip). */
    uint8_t changed[2][TILT_PIPE_COLUMNS / 8];
    /* Per page buffer: no column was compared, all are sent (the marks are
     * not looked at: the old cost for a page not compared). */
    bool whole[2];
    /* Per page: 0 compare it whole, 1 probe it, more: frames to the probe. */
    uint8_t compare_wait[TILT_PIPE_PAGES];
    /* Set by the caller (tilt_pipe_set_byte_time, tilt_pipe_set_sample_period),
     * kept by tilt_pipe_reset: the display's bus time a byte (in
     * TILT_PIPE_BYTE_TIME_NS units), whether the
     * sensor samples faster than every TILT_PIPE_SHORT_SPAN_PERIOD_US, and
     * from them the skipped columns that pay for a comparison and the
     * columns a render pass takes at most (0: TILT_PIPE_RENDER_SPAN). */
    uint16_t byte_time;
    bool fast_sensor;
    uint8_t worth_skipping;
    uint8_t span;
    /* Sending: the next column to send (the first one marked from where the
     * last piece ended), and whether the display's cursor is there already. */
    uint8_t send_page, send_column;
    bool page_open;         /* no command needed before send_column's data */
    /* The display's cursor (cursor_column TILT_PIPE_CURSOR_UNKNOWN: not
     * known) and, in continuous mode, the column it returns to at a page's
     * end (the window command's first column). */
    uint8_t cursor_page, cursor_column, window_column;
    /* Frames whose last page is done (wraps at 256). */
    uint8_t frames;
    /* Set by the caller, kept by tilt_pipe_reset: the display's cursor runs on
     * from a page's last column to the next page's first (the SSD1306's
     * horizontal addressing), so only a frame's first page needs a command
     * (the window one); else every page gets its page command (SH1106). */
    bool continuous;
    bool ready_sent;        /* READY sent for the coming latch */
} tilt_pipe;

typedef enum {
    TILT_PIPE_WAIT = 0,     /* nothing to send now */
    TILT_PIPE_COMMAND,      /* send the page (or window) command for `send_page` at `send_column`, then `count` (maybe 0) data bytes */
    TILT_PIPE_DATA,         /* send `count` data bytes of buffer send_page & 1 from send_column */
} tilt_pipe_step;

/** Idle: nothing latched, nothing to send, the cursor not known
 *  (`continuous` is kept). */
void tilt_pipe_reset(tilt_pipe *pipe);

/** True when the caller should latch a new view now (the view changed and
 *  the render side is free: at most the last page of a frame is pending). */
bool tilt_pipe_wants_latch(const tilt_pipe *pipe, bool redraw);
/** The caller latched its view: render its page 0 next. */
void tilt_pipe_latched(tilt_pipe *pipe);

/** Columns to render next (0: none) into buffer render_page & 1 from render_column. */
uint8_t tilt_pipe_render_span(const tilt_pipe *pipe);
/** The sensor's sample period, µs (0: no sensor): sets span and, with the
 *  byte time, worth_skipping. */
void tilt_pipe_set_sample_period(tilt_pipe *pipe, uint32_t period_us);
/** The unit of a display byte's bus time (`byte_time` below): 2 ns, so that
 *  16 bits reach 131 us, 100 kHz's 90.8 us included, while the sizing below
 *  keeps 16-bit arguments: 32-bit ones cost the glass at 1 kHz 3 % of its
 *  frames and the firmware 110 bytes of flash. Every clock's byte time is an
 *  even number of ns (i2c_display_byte_ns), so nothing is rounded. */
#define TILT_PIPE_BYTE_TIME_NS 2u
/** The display's bus time a byte (its clock), in TILT_PIPE_BYTE_TIME_NS
 *  units: sets worth_skipping. */
void tilt_pipe_set_byte_time(tilt_pipe *pipe, uint16_t byte_time);
/** True when the span about to be rendered is worth comparing with the
 *  glass: its page's last comparison paid, or a probe is due and (past its
 *  first span) the page's columns so far skipped their share. Once false
 *  for a page, false for the rest of it. */
bool tilt_pipe_compare_wanted(const tilt_pipe *pipe);
/** `count` columns were rendered, all to be sent. */
void tilt_pipe_rendered(tilt_pipe *pipe, uint8_t count);
/** `count` columns were rendered as `fresh`; `glass` is what the display
 *  shows there now (NULL: not known, all to be sent). Columns alike are
 *  skipped when the gap they make is worth a command. */
void tilt_pipe_compared(tilt_pipe *pipe, uint8_t count, const uint8_t *fresh, const uint8_t *glass);

/** Data bytes that fit on the bus in `left_us` (until the sensor's next sample
 *  is due, TILT_PIPE_NO_DEADLINE if none) at `byte_time` per bus byte. */
uint16_t tilt_pipe_bytes_fitting(int32_t left_us, uint16_t byte_time);
/** What to send now, with the bus free and `left_us` before the next sample. */
tilt_pipe_step tilt_pipe_next(const tilt_pipe *pipe, int32_t left_us, uint16_t byte_time, uint8_t *count);
/** While `step` with `count` data bytes (from send_page, send_column) is on
 *  the bus: the data piece that can follow it with no command, chained to
 *  it, and fits in `left_us` (measured from the end of the one in flight);
 *  false if none. `*page`, `*column`: where it starts. */
bool tilt_pipe_next_chained(const tilt_pipe *pipe, tilt_pipe_step step, uint8_t count, int32_t left_us,
                            uint16_t byte_time, uint8_t *page, uint8_t *column, uint8_t *chained);
/** The step went out with `count` data bytes. */
void tilt_pipe_sent(tilt_pipe *pipe, tilt_pipe_step step, uint8_t count);

/** True when nothing is latched, rendered or being sent. */
bool tilt_pipe_idle(const tilt_pipe *pipe);
/** Bus bytes still to go before the next latch can happen (the last page of
 *  the frame starts going out), counting whole pages: at most that, as
 *  unchanged columns are skipped; 0 when a latch is possible now. */
uint16_t tilt_pipe_bytes_to_latch(const tilt_pipe *pipe);
/** Bus time (ns at `byte_time` a byte) until the next latch can happen, with
 *  `sent` bytes of the piece in flight already on the bus: the pipe counts a
 *  piece only when it ends, and a page is 3 ms at 400 kHz, too coarse to time
 *  READY by. 0 when a latch is possible now. */
uint32_t tilt_pipe_ns_to_latch(const tilt_pipe *pipe, uint16_t byte_time, uint16_t sent);
/** True when a frame READY is due now (the latch is within
 *  TILT_PIPE_READY_LEAD_US of bus time, `sent` as for tilt_pipe_ns_to_latch);
 *  the caller sends it and calls tilt_pipe_ready_sent. Its time field:
 *  now + *until_latch_us (set only when true). */
bool tilt_pipe_ready_due(const tilt_pipe *pipe, uint16_t byte_time, uint16_t sent, uint32_t *until_latch_us);
void tilt_pipe_ready_sent(tilt_pipe *pipe);
/** True when the idle READY is due: one is owed (SYNC 1 or a latch since the
 *  last), nothing is being drawn and the view did not change. */
bool tilt_pipe_idle_ready_due(const tilt_pipe *pipe, bool owed, bool redraw);

#ifdef __cplusplus
}
#endif
#endif
