#include "tilt_pipe.h"

void tilt_pipe_reset(tilt_pipe *pipe) {
    pipe->rendering = false;
    pipe->render_page = 0;
    pipe->render_column = 0;
    pipe->pending = 0;
    pipe->send_page = 0;
    pipe->send_column = 0;
    pipe->page_open = false;
    pipe->ready_sent = false;
}

bool tilt_pipe_wants_latch(const tilt_pipe *pipe, bool redraw) {
    return redraw && !pipe->rendering && pipe->pending <= 1;
}

void tilt_pipe_latched(tilt_pipe *pipe) {
    pipe->rendering = true;
    pipe->render_page = 0;
    pipe->render_column = 0;
    if (pipe->pending == 0) pipe->ready_sent = false; /* from idle: this frame's READY is to come */
}

uint8_t tilt_pipe_render_span(const tilt_pipe *pipe) {
    if (!pipe->rendering || pipe->pending >= 2) return 0;
    uint8_t left = (uint8_t)(TILT_PIPE_COLUMNS - pipe->render_column);
    return left < TILT_PIPE_RENDER_SPAN ? left : TILT_PIPE_RENDER_SPAN;
}

void tilt_pipe_rendered(tilt_pipe *pipe, uint8_t count) {
    pipe->render_column = (uint8_t)(pipe->render_column + count);
    if (pipe->render_column < TILT_PIPE_COLUMNS) return;
    pipe->render_column = 0;
    pipe->pending++;
    if (++pipe->render_page == TILT_PIPE_PAGES) {
        pipe->render_page = 0;
        pipe->rendering = false;
    }
}

/* Bus bytes of the command that opens send_page. */
static uint8_t command_bytes(const tilt_pipe *pipe) {
    return pipe->continuous ? TILT_PIPE_WINDOW_BYTES : TILT_PIPE_COMMAND_BYTES;
}

uint16_t tilt_pipe_bytes_fitting(int32_t left_us, uint16_t byte_ns) {
    if (left_us == TILT_PIPE_NO_DEADLINE) return 0xFFFFu;
    int32_t usable = left_us - TILT_PIPE_SAMPLE_MARGIN_US;
    if (usable <= 0 || byte_ns == 0) return 0;
    uint32_t bytes = (uint32_t)usable * 1000u / byte_ns;
    return bytes > 0xFFFFu ? 0xFFFFu : (uint16_t)bytes;
}

/* tilt_pipe_bytes_fitting(left_us, byte_ns) >= bytes, by multiplying: the
 * common case (the rest of a page fits) without a 32-bit division, which
 * costs about 40 µs on the AVR before every piece while the bus waits. */
static bool fits_whole(int32_t left_us, uint16_t byte_ns, uint16_t bytes) {
    if (left_us == TILT_PIPE_NO_DEADLINE) return true;
    int32_t usable = left_us - TILT_PIPE_SAMPLE_MARGIN_US;
    if (usable <= 0 || byte_ns == 0) return false;
    if (usable >= 1000000) return true; /* a second: far more than a page */
    return (uint32_t)usable * 1000u >= (uint32_t)bytes * byte_ns;
}

/* tilt_pipe_bytes_fitting(left_us, byte_ns) once fits_whole said it is less
 * than a page and its command (under 256): the quotient by shift and
 * subtract, 8 steps without a multiplication, not avr-gcc's 32-bit division
 * (about 40 µs before every piece that does not finish its page, with the
 * bus idle: 1.5 ms of each frame at 1 kHz, docs/perf/render.md). */
static uint8_t bytes_fitting_short(int32_t left_us, uint16_t byte_ns) {
    int32_t usable = left_us - TILT_PIPE_SAMPLE_MARGIN_US;
    if (usable <= 0 || byte_ns == 0) return 0;
    uint32_t rest = (uint32_t)usable * 1000u; /* < whole * byte_ns < 256 * byte_ns */
    uint32_t step = (uint32_t)byte_ns << 7;
    uint8_t bytes = 0;
    for (uint8_t bit = 0x80; bit; bit >>= 1, step >>= 1) {
        if (rest >= step) {
            rest -= step;
            bytes |= bit;
        }
    }
    return bytes;
}

tilt_pipe_step tilt_pipe_next(const tilt_pipe *pipe, int32_t left_us, uint16_t byte_ns, uint8_t *count) {
    *count = 0;
    if (pipe->pending == 0) return TILT_PIPE_WAIT;
    uint8_t rest = (uint8_t)(TILT_PIPE_COLUMNS - pipe->send_column);
    uint16_t whole = (uint16_t)(rest + TILT_PIPE_DATA_OVERHEAD + (pipe->page_open ? 0u : command_bytes(pipe)));
    if (fits_whole(left_us, byte_ns, whole)) {
        *count = rest;
        return pipe->page_open ? TILT_PIPE_DATA : TILT_PIPE_COMMAND;
    }
    uint16_t fits = bytes_fitting_short(left_us, byte_ns);
    tilt_pipe_step step = TILT_PIPE_DATA;
    if (!pipe->page_open) {
        /* The page command, and as much of the page's data as fits after it. */
        if (fits < command_bytes(pipe)) return TILT_PIPE_WAIT;
        fits = (uint16_t)(fits - command_bytes(pipe));
        step = TILT_PIPE_COMMAND;
    }
    if (fits <= TILT_PIPE_DATA_OVERHEAD) return step == TILT_PIPE_COMMAND ? step : TILT_PIPE_WAIT;
    uint16_t room = (uint16_t)(fits - TILT_PIPE_DATA_OVERHEAD);
    uint8_t left = (uint8_t)(TILT_PIPE_COLUMNS - pipe->send_column);
    if (room >= left) {
        *count = left;
        return step;
    }
    if (room < TILT_PIPE_MIN_PIECE) return step == TILT_PIPE_COMMAND ? step : TILT_PIPE_WAIT;
    *count = (uint8_t)room;
    return step;
}

void tilt_pipe_sent(tilt_pipe *pipe, tilt_pipe_step step, uint8_t count) {
    if (step == TILT_PIPE_WAIT) return;
    pipe->page_open = true;
    pipe->send_column = (uint8_t)(pipe->send_column + count);
    if (pipe->send_column < TILT_PIPE_COLUMNS) return;
    pipe->send_column = 0;
    pipe->pending--;
    pipe->send_page = (uint8_t)((pipe->send_page + 1u) % TILT_PIPE_PAGES);
    /* In continuous mode the cursor is already at the next page; a new frame
     * still opens with the window command (it also puts right a cursor a
     * failed transfer left astray). */
    pipe->page_open = pipe->continuous && pipe->send_page != 0;
    if (pipe->send_page == 0) pipe->ready_sent = false; /* a frame ended: the next one's READY is to come */
}

bool tilt_pipe_idle(const tilt_pipe *pipe) { return !pipe->rendering && pipe->pending == 0; }

uint16_t tilt_pipe_bytes_to_latch(const tilt_pipe *pipe) {
    if (pipe->pending == 0) return 0;
    /* The frame on the bus: pages send_page .. 6 must go before page 7 starts. */
    uint8_t last = TILT_PIPE_PAGES - 1u;
    if (pipe->send_page >= last) return 0;
    uint16_t per_page = (pipe->continuous ? 0u : TILT_PIPE_COMMAND_BYTES) + TILT_PIPE_DATA_OVERHEAD + TILT_PIPE_COLUMNS;
    uint16_t this_page = (uint16_t)(TILT_PIPE_COLUMNS - pipe->send_column + TILT_PIPE_DATA_OVERHEAD
                                    + (pipe->page_open ? 0u : command_bytes(pipe)));
    return (uint16_t)(this_page + per_page * (uint16_t)(last - 1u - pipe->send_page));
}

uint32_t tilt_pipe_ns_to_latch(const tilt_pipe *pipe, uint16_t byte_ns, uint16_t sent) {
    uint16_t bytes = tilt_pipe_bytes_to_latch(pipe);
    bytes = bytes > sent ? (uint16_t)(bytes - sent) : 0u;
    return (uint32_t)bytes * byte_ns;
}

bool tilt_pipe_ready_due(const tilt_pipe *pipe, uint16_t byte_ns, uint16_t sent, uint32_t *until_latch_us) {
    if (pipe->ready_sent || pipe->pending == 0) return false;
    /* Compared before dividing: this runs on every loop pass, and a 32-bit
     * division is about 40 µs on the AVR. The lead in 32 bits: int is 16 on
     * the AVR, where 6000u * 1000u wraps to 37 224 (READY then went out only
     * as the latch came, too late for the host's answer). */
    uint32_t ns = tilt_pipe_ns_to_latch(pipe, byte_ns, sent);
    if (ns > (uint32_t)TILT_PIPE_READY_LEAD_US * 1000u) return false;
    *until_latch_us = ns / 1000u;
    return true;
}

void tilt_pipe_ready_sent(tilt_pipe *pipe) { pipe->ready_sent = true; }

bool tilt_pipe_idle_ready_due(const tilt_pipe *pipe, bool owed, bool redraw) {
    return owed && !redraw && tilt_pipe_idle(pipe);
}
