#include "tilt_pipe.h"

/* A microsecond in byte-time units (TILT_PIPE_BYTE_TIME_NS). */
#define UNITS_PER_US (1000u / TILT_PIPE_BYTE_TIME_NS)

void tilt_pipe_reset(tilt_pipe *pipe) {
    pipe->rendering = false;
    pipe->render_page = 0;
    pipe->render_column = 0;
    pipe->pending = 0;
    pipe->send_page = 0;
    pipe->send_column = 0;
    pipe->page_open = false;
    pipe->cursor_page = 0;
    pipe->cursor_column = TILT_PIPE_CURSOR_UNKNOWN;
    pipe->window_column = 0;
    pipe->frames = 0;
    pipe->ready_sent = false;
    pipe->whole[0] = pipe->whole[1] = true;
    for (uint8_t p = 0; p < TILT_PIPE_PAGES; p++) pipe->compare_wait[p] = 1; /* a probe first */
}

/* The skipped columns that pay for comparing a page: its cost in bus time at
 * the display's clock, twice that when the sensor samples fast (its reads
 * and SAMPLEs then leave the CPU, not the bus, the scarcer one). */
static void update_worth(tilt_pipe *pipe) {
    uint32_t cost_ns = (uint32_t)TILT_PIPE_COMPARE_COST_US * 1000u * (pipe->fast_sensor ? 2u : 1u);
    uint32_t byte_ns = (uint32_t)pipe->byte_time * TILT_PIPE_BYTE_TIME_NS;
    uint32_t columns = byte_ns ? (cost_ns + byte_ns - 1u) / byte_ns : TILT_PIPE_COLUMNS;
    pipe->worth_skipping = (uint8_t)(columns < TILT_PIPE_COLUMNS ? columns : TILT_PIPE_COLUMNS);
}

void tilt_pipe_set_sample_period(tilt_pipe *pipe, uint32_t period_us) {
    pipe->fast_sensor = period_us != 0 && period_us < TILT_PIPE_SHORT_SPAN_PERIOD_US;
    pipe->span = pipe->fast_sensor ? TILT_PIPE_RENDER_SPAN / 2u : TILT_PIPE_RENDER_SPAN;
    update_worth(pipe);
}

void tilt_pipe_set_byte_time(tilt_pipe *pipe, uint16_t byte_time) {
    pipe->byte_time = byte_time;
    update_worth(pipe);
}

/* Columns marked in the first `bytes` bytes of a page's mask. */
static uint8_t marked_count(const uint8_t *mask, uint8_t bytes) {
    uint8_t n = 0;
    for (uint8_t i = 0; i < bytes; i++) {
        uint8_t v = mask[i];
        v = (uint8_t)(v - ((v >> 1) & 0x55u));
        v = (uint8_t)((v & 0x33u) + ((v >> 2) & 0x33u));
        n = (uint8_t)(n + ((v + (v >> 4)) & 0x0Fu));
    }
    return n;
}

/* compare_wait: 0 the page's last comparison paid, compare it whole; 1 a
 * probe is due: compare its first span, and the rest only if that skipped
 * its share; more: frames to go before the probe. */
bool tilt_pipe_compare_wanted(const tilt_pipe *pipe) {
    uint8_t wait = pipe->compare_wait[pipe->render_page];
    uint8_t column = pipe->render_column;
    if (column == 0) return wait <= 1u;
    if (pipe->whole[pipe->render_page & 1u]) return false;
    if (wait == 0) return true;
    uint8_t bytes = (uint8_t)(column >> 3);
    uint8_t skipped = (uint8_t)(bytes * 8u - marked_count(pipe->changed[pipe->render_page & 1u], bytes));
    return (uint16_t)skipped * TILT_PIPE_COLUMNS >= (uint16_t)pipe->worth_skipping * (uint16_t)(bytes * 8u);
}

/* Bus bytes of the command that opens send_page. */
static uint8_t command_bytes(const tilt_pipe *pipe) {
    return pipe->continuous ? TILT_PIPE_WINDOW_BYTES : TILT_PIPE_COMMAND_BYTES;
}

/* The lowest set bit of `bits` (not 0): three tests, as the AVR shifts one
 * bit per instruction (a nibble swap is one). */
static uint8_t lowest_bit(uint8_t bits) {
    uint8_t n = 0;
    if (!(bits & 0x0Fu)) {
        n = 4;
        bits >>= 4;
    }
    if (!(bits & 0x03u)) {
        n += 2;
        bits >>= 2;
    }
    return (uint8_t)(n + !(bits & 1u));
}

/* The first column from `column` on whose mark is `marked`; TILT_PIPE_COLUMNS
 * if none. A byte of marks at a time. */
static uint8_t scan(const uint8_t *mask, uint8_t column, bool marked) {
    if (column >= TILT_PIPE_COLUMNS) return TILT_PIPE_COLUMNS;
    uint8_t flip = marked ? 0u : 0xFFu;
    uint8_t i = (uint8_t)(column >> 3);
    uint8_t bits = (uint8_t)((mask[i] ^ flip) & (uint8_t)(0xFFu << (column & 7u)));
    while (bits == 0) {
        if (++i == TILT_PIPE_COLUMNS / 8u) return TILT_PIPE_COLUMNS;
        bits = (uint8_t)(mask[i] ^ flip);
    }
    return (uint8_t)(i * 8u + lowest_bit(bits));
}

/* The first column from `column` on to send in page buffer `buffer`. */
static uint8_t first_to_send(const tilt_pipe *pipe, uint8_t buffer, uint8_t column) {
    return pipe->whole[buffer] ? column : scan(pipe->changed[buffer], column, true);
}

/* The columns to send in a row from `column` (one to send) in page buffer `buffer`. */
static uint8_t run_from(const tilt_pipe *pipe, uint8_t buffer, uint8_t column) {
    uint8_t end = pipe->whole[buffer] ? TILT_PIPE_COLUMNS : scan(pipe->changed[buffer], column, false);
    return (uint8_t)(end - column);
}

/* Marks columns [from, to): a mark byte at a time. */
static void mark(uint8_t *mask, uint8_t from, uint8_t to) {
    while (from < to) {
        uint8_t end = (uint8_t)((from | 7u) + 1u);
        if (end > to) end = to;
        mask[from >> 3] |= (uint8_t)(((1u << (end - from)) - 1u) << (from & 7u));
        from = end;
    }
}

/* A rendered page's gaps (runs of unmarked columns) too short to be worth a
 * command and a new data transfer are sent all the same: marked. At the
 * page's edges only in continuous mode, where the cursor runs on from the
 * page before and to the page after (not past the last page). A page with
 * nothing marked stays so: it is skipped whole. */
static void fill_short_gaps(const tilt_pipe *pipe, uint8_t *mask, uint8_t page) {
    uint8_t shortest = (uint8_t)(command_bytes(pipe) + TILT_PIPE_DATA_OVERHEAD + TILT_PIPE_SKIP_WAIT_BYTES);
    uint8_t column = 0;
    while (column < TILT_PIPE_COLUMNS) {
        uint8_t from = scan(mask, column, false);
        if (from == TILT_PIPE_COLUMNS) return;
        uint8_t to = scan(mask, from, true);
        bool inner = from > 0 && to < TILT_PIPE_COLUMNS;
        bool edge = pipe->continuous && (from > 0 || to < TILT_PIPE_COLUMNS)
                    && (to < TILT_PIPE_COLUMNS || page + 1u < TILT_PIPE_PAGES);
        if ((uint8_t)(to - from) < shortest && (inner || edge)) mark(mask, from, to);
        column = to;
    }
}

/* The send page is done: on to the next (a frame ends after the last). */
static void page_done(tilt_pipe *pipe) {
    pipe->send_column = 0;
    pipe->pending--;
    if (++pipe->send_page < TILT_PIPE_PAGES) return;
    pipe->send_page = 0;
    pipe->frames++;
    pipe->ready_sent = false; /* the next frame's READY is to come */
    /* A new frame opens with its command (which also puts right a cursor a
     * failed transfer left astray). */
    pipe->cursor_column = TILT_PIPE_CURSOR_UNKNOWN;
}

/* Moves the send position on to the next marked column, past pages with
 * nothing left to send, and works out whether the cursor is there. */
static void settle(tilt_pipe *pipe) {
    while (pipe->pending > 0) {
        pipe->send_column = first_to_send(pipe, pipe->send_page & 1u, pipe->send_column);
        if (pipe->send_column < TILT_PIPE_COLUMNS) break;
        page_done(pipe);
    }
    pipe->page_open = pipe->cursor_column == pipe->send_column && pipe->cursor_page == pipe->send_page;
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
    uint8_t span = pipe->span ? pipe->span : TILT_PIPE_RENDER_SPAN;
    return left < span ? left : span;
}

void tilt_pipe_compared(tilt_pipe *pipe, uint8_t count, const uint8_t *fresh, const uint8_t *glass) {
    uint8_t buffer = pipe->render_page & 1u;
    uint8_t *mask = pipe->changed[buffer];
    uint8_t column = pipe->render_column;
    if (column == 0) pipe->whole[buffer] = true;
    if (glass && pipe->whole[buffer]) {
        mark(mask, 0, column); /* the spans before were not compared: all sent */
        pipe->whole[buffer] = false;
    }
    if (pipe->whole[buffer]) {
        /* Not compared: the marks are not looked at until a span is. */
        column = (uint8_t)(column + count);
        count = 0;
    }
    for (uint8_t i = 0; i < count; i++, column++) {
        /* Eight columns a mark byte, shifted in from the top: a variable
         * shift per column cost more than the rendering on the AVR. */
        if ((column & 7u) == 0 && (uint8_t)(count - i) >= 8u) {
            uint8_t bits = 0xFFu;
            if (glass) {
                const uint8_t *f = fresh + i, *g = glass + i;
                for (uint8_t k = 0; k < 8u; k++) {
                    bits >>= 1;
                    if (*f++ != *g++) bits |= 0x80u;
                }
            }
            mask[column >> 3] = bits;
            i += 7;
            column += 7;
            continue;
        }
        uint8_t bit = (uint8_t)(1u << (column & 7u));
        if (!glass || fresh[i] != glass[i]) mask[column >> 3] |= bit;
        else mask[column >> 3] &= (uint8_t)~bit;
    }
    pipe->render_column = column;
    if (column < TILT_PIPE_COLUMNS) return;
    uint8_t *wait = &pipe->compare_wait[pipe->render_page];
    if (!pipe->whole[buffer]) {
        fill_short_gaps(pipe, mask, pipe->render_page);
        uint8_t skipped = (uint8_t)(TILT_PIPE_COLUMNS - marked_count(mask, TILT_PIPE_COLUMNS / 8u));
        *wait = skipped >= pipe->worth_skipping ? 0u : (uint8_t)(TILT_PIPE_RECHECK_FRAMES + 1u);
    } else if (*wait > 1u) {
        --*wait;
    }
    pipe->render_column = 0;
    pipe->pending++;
    if (++pipe->render_page == TILT_PIPE_PAGES) {
        pipe->render_page = 0;
        pipe->rendering = false;
    }
    settle(pipe);
}

void tilt_pipe_rendered(tilt_pipe *pipe, uint8_t count) { tilt_pipe_compared(pipe, count, 0, 0); }

uint16_t tilt_pipe_bytes_fitting(int32_t left_us, uint16_t byte_time) {
    if (left_us == TILT_PIPE_NO_DEADLINE) return 0xFFFFu;
    int32_t usable = left_us - TILT_PIPE_SAMPLE_MARGIN_US;
    if (usable <= 0 || byte_time == 0) return 0;
    uint32_t bytes = (uint32_t)usable * UNITS_PER_US / byte_time;
    return bytes > 0xFFFFu ? 0xFFFFu : (uint16_t)bytes;
}

/* tilt_pipe_bytes_fitting(left_us, byte_time) >= bytes, by multiplying: the
 * common case (the rest of a page fits) without a 32-bit division, which
 * costs about 40 µs on the AVR before every piece while the bus waits. */
static bool fits_whole(int32_t left_us, uint16_t byte_time, uint16_t bytes) {
    if (left_us == TILT_PIPE_NO_DEADLINE) return true;
    int32_t usable = left_us - TILT_PIPE_SAMPLE_MARGIN_US;
    if (usable <= 0 || byte_time == 0) return false;
    if (usable >= 1000000) return true; /* a second: far more than a page */
    return (uint32_t)usable * UNITS_PER_US >= (uint32_t)bytes * byte_time;
}

/* tilt_pipe_bytes_fitting(left_us, byte_time) once fits_whole said it is less
 * than a page and its command (under 256): the quotient by shift and
 * subtract, 8 steps without a multiplication, not avr-gcc's 32-bit division
 * (about 40 µs before every piece that does not finish its page, with the
 * bus idle: 1.5 ms of each frame at 1 kHz, docs/perf/render.md). */
static uint8_t bytes_fitting_short(int32_t left_us, uint16_t byte_time) {
    int32_t usable = left_us - TILT_PIPE_SAMPLE_MARGIN_US;
    if (usable <= 0 || byte_time == 0) return 0;
    uint32_t rest = (uint32_t)usable * UNITS_PER_US; /* < whole * byte_time < 256 * byte_time */
    uint32_t step = (uint32_t)byte_time << 7;
    uint8_t bytes = 0;
    for (uint8_t bit = 0x80; bit; bit >>= 1, step >>= 1) {
        if (rest >= step) {
            rest -= step;
            bytes |= bit;
        }
    }
    return bytes;
}

/* The piece to send now: `rest` columns in a row to send from the send
 * position, `open` if the cursor is there (else a command goes first). */
static tilt_pipe_step piece(const tilt_pipe *pipe, uint8_t rest, bool open, int32_t left_us, uint16_t byte_time,
                            uint8_t *count) {
    *count = 0;
    uint16_t whole = (uint16_t)(rest + TILT_PIPE_DATA_OVERHEAD + (open ? 0u : command_bytes(pipe)));
    if (fits_whole(left_us, byte_time, whole)) {
        *count = rest;
        return open ? TILT_PIPE_DATA : TILT_PIPE_COMMAND;
    }
    uint16_t fits = bytes_fitting_short(left_us, byte_time);
    tilt_pipe_step step = TILT_PIPE_DATA;
    if (!open) {
        /* The command, and as much of the data as fits after it. */
        if (fits < command_bytes(pipe)) return TILT_PIPE_WAIT;
        fits = (uint16_t)(fits - command_bytes(pipe));
        step = TILT_PIPE_COMMAND;
    }
    if (fits <= TILT_PIPE_DATA_OVERHEAD) return step == TILT_PIPE_COMMAND ? step : TILT_PIPE_WAIT;
    uint16_t room = (uint16_t)(fits - TILT_PIPE_DATA_OVERHEAD);
    if (room >= rest) {
        *count = rest;
        return step;
    }
    if (room < TILT_PIPE_MIN_PIECE) return step == TILT_PIPE_COMMAND ? step : TILT_PIPE_WAIT;
    *count = (uint8_t)room;
    return step;
}

tilt_pipe_step tilt_pipe_next(const tilt_pipe *pipe, int32_t left_us, uint16_t byte_time, uint8_t *count) {
    *count = 0;
    if (pipe->pending == 0) return TILT_PIPE_WAIT;
    uint8_t rest = run_from(pipe, pipe->send_page & 1u, pipe->send_column);
    return piece(pipe, rest, pipe->page_open, left_us, byte_time, count);
}

bool tilt_pipe_next_chained(const tilt_pipe *pipe, tilt_pipe_step step, uint8_t count, int32_t left_us,
                            uint16_t byte_time, uint8_t *page, uint8_t *column, uint8_t *chained) {
    *chained = 0;
    if (step == TILT_PIPE_WAIT) return false;
    /* Where the cursor is once the piece in flight is out. */
    uint8_t p = pipe->send_page, c = (uint8_t)(pipe->send_column + count);
    if (c == TILT_PIPE_COLUMNS) {
        if (!pipe->continuous || p + 1u >= TILT_PIPE_PAGES || pipe->pending < 2) return false;
        p++;
        c = step == TILT_PIPE_COMMAND ? pipe->send_column : pipe->window_column;
        if (first_to_send(pipe, p & 1u, 0) != c) return false;
    } else if (first_to_send(pipe, p & 1u, c) != c) {
        return false; /* a gap: the next piece needs a command */
    }
    if (piece(pipe, run_from(pipe, p & 1u, c), true, left_us, byte_time, chained) != TILT_PIPE_DATA || *chained == 0)
        return false;
    *page = p;
    *column = c;
    return true;
}

void tilt_pipe_sent(tilt_pipe *pipe, tilt_pipe_step step, uint8_t count) {
    if (step == TILT_PIPE_WAIT) return;
    if (step == TILT_PIPE_COMMAND) pipe->window_column = pipe->send_column;
    uint8_t end = (uint8_t)(pipe->send_column + count);
    pipe->cursor_page = pipe->send_page;
    pipe->cursor_column = end;
    if (end == TILT_PIPE_COLUMNS) {
        /* Past a page's end the SSD1306's cursor (continuous mode) goes on at
         * the window's first column of the next page; the SH1106's runs on
         * into columns off the glass. */
        if (pipe->continuous && pipe->send_page + 1u < TILT_PIPE_PAGES) {
            pipe->cursor_page++;
            pipe->cursor_column = pipe->window_column;
        } else {
            pipe->cursor_column = TILT_PIPE_CURSOR_UNKNOWN;
        }
        page_done(pipe);
    } else {
        pipe->send_column = end;
    }
    settle(pipe);
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

uint32_t tilt_pipe_ns_to_latch(const tilt_pipe *pipe, uint16_t byte_time, uint16_t sent) {
    uint16_t bytes = tilt_pipe_bytes_to_latch(pipe);
    bytes = bytes > sent ? (uint16_t)(bytes - sent) : 0u;
    return (uint32_t)bytes * byte_time * TILT_PIPE_BYTE_TIME_NS;
}

bool tilt_pipe_ready_due(const tilt_pipe *pipe, uint16_t byte_time, uint16_t sent, uint32_t *until_latch_us) {
    if (pipe->ready_sent || pipe->pending == 0) return false;
    /* Compared before dividing: this runs on every loop pass, and a 32-bit
     * division is about 40 µs on the AVR. The lead in 32 bits: int is 16 on
     * the AVR, where 6000u * 1000u wraps to 37 224 (READY then went out only
     * as the latch came, too late for the host's answer). */
    uint32_t ns = tilt_pipe_ns_to_latch(pipe, byte_time, sent);
    if (ns > (uint32_t)TILT_PIPE_READY_LEAD_US * 1000u) return false;
    *until_latch_us = ns / 1000u;
    return true;
}

void tilt_pipe_ready_sent(tilt_pipe *pipe) { pipe->ready_sent = true; }

bool tilt_pipe_idle_ready_due(const tilt_pipe *pipe, bool owed, bool redraw) {
    return owed && !redraw && tilt_pipe_idle(pipe);
}
