/* The display's frames on the I2C bus: when to latch a new view, which page
 * to render next, how much of a page fits on the bus before the sensor's next
 * sample is due, and when to send READY (docs/display.md, "Frame pipeline").
 * Pure decisions over integers: the firmware runs them against its TWI
 * driver, and tests run them from Swift (FirmwareCore).
 *
 * Two 128-byte page buffers: page p goes out of buffer p & 1 while page p + 1
 * is rendered into the other. The next frame's view is latched when the last
 * page of the current one starts going out, so its first page is rendered
 * while the bus is still busy and the bus never waits for the renderer. */
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
/** Columns rendered per loop pass: bounded, so the loop comes back soon to
 *  start the next transfer and to poll the sensor, even when the drawer makes
 *  a page slow to render. */
#define TILT_PIPE_RENDER_SPAN 16u
/** "No sample due": no sensor, the bus is the display's. */
#define TILT_PIPE_NO_DEADLINE INT32_MAX

typedef struct {
    /* Rendering the latched view. */
    bool rendering;         /* pages of the latched view are left to render */
    uint8_t render_page, render_column;
    /* Pages rendered and not yet fully sent (0..2): the buffers in use. */
    uint8_t pending;
    /* Sending. */
    uint8_t send_page, send_column;
    bool page_open;         /* the page command went out for send_page */
    /* Set by the caller, kept by tilt_pipe_reset: the display's cursor runs on
     * from a page's last column to the next page's first (the SSD1306's
     * horizontal addressing), so only a frame's first page needs a command
     * (the window one); else every page gets its page command (SH1106). */
    bool continuous;
    bool ready_sent;        /* READY sent for the coming latch */
} tilt_pipe;

typedef enum {
    TILT_PIPE_WAIT = 0,     /* nothing to send now */
    TILT_PIPE_COMMAND,      /* send the page (or window) command for `send_page`, then `count` (maybe 0) data bytes */
    TILT_PIPE_DATA,         /* send `count` data bytes of buffer send_page & 1 from send_column */
} tilt_pipe_step;

/** Idle: nothing latched, nothing to send (`continuous` is kept). */
void tilt_pipe_reset(tilt_pipe *pipe);

/** True when the caller should latch a new view now (the view changed and
 *  the render side is free: at most the last page of a frame is pending). */
bool tilt_pipe_wants_latch(const tilt_pipe *pipe, bool redraw);
/** The caller latched its view: render its page 0 next. */
void tilt_pipe_latched(tilt_pipe *pipe);

/** Columns to render next (0: none) into buffer render_page & 1 from render_column. */
uint8_t tilt_pipe_render_span(const tilt_pipe *pipe);
/** `count` columns were rendered. */
void tilt_pipe_rendered(tilt_pipe *pipe, uint8_t count);

/** Data bytes that fit on the bus in `left_us` (until the sensor's next sample
 *  is due, TILT_PIPE_NO_DEADLINE if none) at `byte_ns` per bus byte. */
uint16_t tilt_pipe_bytes_fitting(int32_t left_us, uint16_t byte_ns);
/** What to send now, with the bus free and `left_us` before the next sample. */
tilt_pipe_step tilt_pipe_next(const tilt_pipe *pipe, int32_t left_us, uint16_t byte_ns, uint8_t *count);
/** The step went out with `count` data bytes. */
void tilt_pipe_sent(tilt_pipe *pipe, tilt_pipe_step step, uint8_t count);

/** True when nothing is latched, rendered or being sent. */
bool tilt_pipe_idle(const tilt_pipe *pipe);
/** Bus bytes still to go before the next latch can happen (the last page of
 *  the frame starts going out); 0 when a latch is possible now. */
uint16_t tilt_pipe_bytes_to_latch(const tilt_pipe *pipe);
/** Bus time (ns at `byte_ns` a byte) until the next latch can happen, with
 *  `sent` bytes of the piece in flight already on the bus: the pipe counts a
 *  piece only when it ends, and a page is 3 ms at 400 kHz, too coarse to time
 *  READY by. 0 when a latch is possible now. */
uint32_t tilt_pipe_ns_to_latch(const tilt_pipe *pipe, uint16_t byte_ns, uint16_t sent);
/** True when a frame READY is due now (the latch is within
 *  TILT_PIPE_READY_LEAD_US of bus time, `sent` as for tilt_pipe_ns_to_latch);
 *  the caller sends it and calls tilt_pipe_ready_sent. Its time field:
 *  now + *until_latch_us (set only when true). */
bool tilt_pipe_ready_due(const tilt_pipe *pipe, uint16_t byte_ns, uint16_t sent, uint32_t *until_latch_us);
void tilt_pipe_ready_sent(tilt_pipe *pipe);
/** True when the idle READY is due: one is owed (SYNC 1 or a latch since the
 *  last), nothing is being drawn and the view did not change. */
bool tilt_pipe_idle_ready_due(const tilt_pipe *pipe, bool owed, bool redraw);

#ifdef __cplusplus
}
#endif
#endif
