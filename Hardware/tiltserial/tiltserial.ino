/*
 * tiltserial companion firmware for the Arduino AVR boards of boards.mk (Uno, Nano,
 * Mega 2560, Leonardo, Micro, Pro Micro at 16 or 8 MHz, Pro Mini at 8 MHz).
 *
 * Streams MPU-6050 readings to the host as SAMPLE frames and draws the host's
 * OFFSETS, DRAWER and PIN on a 128x64 SSD1306: the viewport of the content tile,
 * the pins, the ribbon, the drawer and the dragged item, pixel for pixel as
 * docs/display.md defines it. Protocol: docs/protocol.md.
 * Wiring and flashing: docs/hardware.md.
 *
 * The loop never blocks for long: each pass reads the serial line, takes at most
 * one sensor sample, starts the display's next bus transfer when the bus is
 * free (a page command, or a page's data, whole or in a piece that ends before
 * the sensor's next sample is due) and renders a span of the next page while
 * the current one is on the bus (src/core/tilt_pipe.h decides). The watchdog
 * resets the board if anything stops the loop for 1 s.
 */
#include <Arduino.h>
#include <avr/pgmspace.h>
#include <avr/wdt.h>

#include "assets.h"
#include "config.h"
#include "i2c.h"
#include "mpu6050.h"
#include "settings.h"
#include "ssd1306.h"
#include "src/core/tilt_board.h"
#include "src/core/tilt_frames.h"
#include "src/core/tilt_pipe.h"
#include "src/core/tilt_rate.h"
#include "src/core/tilt_render.h"
#include "src/core/tilt_status.h"

/* ---- Reset handling: after a watchdog reset the watchdog stays enabled (with
 * its shortest timeout) until WDRF in MCUSR is cleared, so it is switched off
 * before anything else runs (.init3); setup() enables it again with 1 s. */
void disable_watchdog_early(void) __attribute__((naked, used, section(".init3")));
void disable_watchdog_early(void) {
    MCUSR = 0;
    wdt_disable();
}

/* ---- Art in flash, read through pgm_read_byte. */
static uint8_t read_flash(const uint8_t *address) { return pgm_read_byte(address); }

static const tilt_art art = {
    asset_tile, TILE_WIDTH, TILE_HEIGHT,
    asset_ribbon_drawn, asset_ribbon_lit, RIBBON_WIDTH, RIBBON_HEIGHT,
    read_flash,
    asset_items_lit, asset_items_drawn, ITEM_COUNT,
};

/* ---- State. What the board does with frames and time (settings, the host's
 * view, redraws) is src/core/tilt_board.c, shared with the host's native model. */
static tilt_rx rx;
static uint8_t wire_out[TILT_MAX_WIRE];
static tilt_board board;

static bool sensor_ok, display_ok;
/* The display kind came from the EEPROM (a stored choice), not detection. */
static bool display_stored;
/* The display's clock in use (TILT_DISPLAY_CLOCK_*), whether it is slower
 * than the one stored (the display did not answer at that), and a display
 * byte's bus time, in the pipe's units (TILT_PIPE_BYTE_TIME_NS) and whole
 * µs rounded up (no division in the loop). */
static uint8_t display_clock;
static bool display_clock_fell_back;
static uint16_t display_byte_time;
static uint8_t display_byte_us;
static uint8_t sample_seq;
/* The sensor's clock as seen from here (poll_sensor): when its next sample
 * is due (at or just after its DATA_RDY, as far as the reads show), and
 * whether that is known well enough to read INT_STATUS and the data in one
 * transaction at that time. */
static uint32_t next_sample_us;
/* Polling INT_STATUS until DATA_RDY: a combined read came before its sample. */
static bool sensor_polling;
/* When the last poll that found no sample began. */
static uint32_t not_ready_us;
/* DATA_RDY was cleared after the last sample's rose: if set, it is a new one.
 * False after a sample counted without touching the bus. */
static bool status_clean;
/* Samples since the clock was last checked by polling. */
static uint8_t since_resync;
/* When the last sample read was due (on the sensor's clock as seen from here). */
static uint32_t last_read_us;
static uint32_t last_probe_ms;

/* The display's frames: the view latched at a frame's start (so one frame
 * never mixes two views; a PIN mid-frame shows from the next frame on), two
 * page buffers (one on the bus, one being rendered) and the transfer in flight. */
static tilt_pipe pipe;
static struct {
    bool live, sensor, pattern;
    tilt_view view;
    tilt_drawer drawer;
} latched;
static uint8_t page_buffers[2][TILT_PIPE_COLUMNS];
/* The frame the glass showed before the latched one, drawn again span by
 * span so only the columns that changed go out (docs/display.md, "Only what
 * changed"). Bit p of glass_known: the glass's page p is that frame's, drawn
 * with the pin table as it was at pin_changes == page_pins[p]; a page drawn
 * before the pin table last changed (or while it changed) goes out whole.
 * page_compared: the page being rendered is compared so far. */
static struct {
    tilt_view view;
    tilt_drawer drawer;
} before;
static uint8_t glass_known;
static uint8_t page_pins[TILT_PIPE_PAGES];
static bool page_compared;
static tilt_pipe_step in_flight;
static uint8_t in_flight_count;
/* Data bytes of the next piece, chained by the interrupt to the one in
 * flight (0: none). */
static uint8_t chained_count;

/* ---- Frames to the host. Sent only if they fit the TX buffer whole, so a slow
 * or absent reader never blocks the loop (a dropped SAMPLE shows as a sequence gap). */
static void send(uint8_t length, bool must) {
    if (length == 0) return;
    if (!must && Serial.availableForWrite() < length) return;
    Serial.write(wire_out, length);
}

static void send_hello(void) {
    tilt_hello hello;
    tilt_board_hello(&board, FIRMWARE_MAJOR, FIRMWARE_MINOR, FIRMWARE_PATCH, TILE_ID,
                     (sensor_ok ? TILT_STATUS_SENSOR : 0) | (display_ok ? TILT_STATUS_DISPLAY : 0), &hello);
    send(tilt_encode_hello(&hello, wire_out), true);
    sample_seq = 0; /* sequence numbers restart after every HELLO */
    tilt_board_hello_sent(&board);
}

/* ---- Sensor. Each sample costs the bus one 15-byte read (INT_STATUS and
 * the data, from 0x3A) at the time the sensor's clock says it is there, or
 * nothing at all when the line cannot carry it (it is counted from the clock:
 * the host sees the gap). Every SENSOR_RESYNC_EVERY samples the clock is
 * checked by polling INT_STATUS from just before the sample is due, since the
 * sensor's and the board's clocks differ by up to a few per cent. */
static const uint8_t SENSOR_RESYNC_EVERY = 8;
/* The combined read starts this long after the sample is due: a margin for
 * the clocks drifting apart between resyncs. */
static const uint32_t SENSOR_READ_LAG_US = 40;
/* The most a due time may trail the sensor's DATA_RDY (a poll's spacing,
 * capped): a read more than a period less this after a sample was due may
 * take the next one's DATA_RDY too. */
static const uint32_t SENSOR_CLOCK_SLACK_US = 300;
/* A byte's time on the line, rounded down, at the rate the Arduino core's
 * UART makes (U2X: F_CPU / 8 / (UBRR + 1); 115200 baud is 117647 at 16 MHz):
 * room in the TX buffer is never underestimated. */
static const uint32_t SERIAL_UBRR = (F_CPU / 4UL / SERIAL_BAUD - 1UL) / 2UL;
static const uint32_t SERIAL_BYTE_US = 10000000UL / (F_CPU / 8UL / (SERIAL_UBRR + 1UL));
/* 65536 / SERIAL_BYTE_US, rounded up: x * this >> 16 is x / SERIAL_BYTE_US, never less. */
static const uint16_t SERIAL_BYTE_RECIPROCAL = (uint16_t)((65536UL + SERIAL_BYTE_US - 1) / SERIAL_BYTE_US);

static void step_display_bus(void);
static void start_sensor(void) {
    sensor_ok = mpu6050_begin(board.divider, board.accel_fs, board.gyro_fs);
    next_sample_us = micros() + tilt_rate_period_us(board.divider);
    tilt_pipe_set_sample_period(&pipe, sensor_ok ? tilt_rate_period_us(board.divider) : 0);
    sensor_polling = false;
    status_clean = true;                 /* mpu6050_begin read INT_STATUS */
    since_resync = SENSOR_RESYNC_EVERY;  /* the first sample sets the clock */
}

/* How early the sensor is asked whether its sample is ready: early enough to
 * catch it on time, late enough to leave the bus to the display. */
static uint32_t poll_window_us(uint32_t period) { return min(period / 8, 100UL); }

static bool resync_due(void) { return status_clean && since_resync >= SENSOR_RESYNC_EVERY; }

/* Bytes about to be queued (a SAMPLE being sent). */
static uint8_t tx_promised;

/* True if the line surely cannot carry a SAMPLE at `at`: the TX buffer's room
 * then, if nothing else were queued and the UART drained it at full speed. */
static bool line_full_at(uint32_t at) {
    int32_t ahead = (int32_t)(at - micros());
    if (ahead > (int32_t)(TILT_SAMPLE_WIRE * SERIAL_BYTE_US)) return false; /* room by then, whatever is queued */
    /* Bytes drained by then, rounded up, plus the one in the shift register:
     * ahead / SERIAL_BYTE_US by a multiply (a 32-bit division is about 40 µs
     * on the AVR, and this runs before every display piece). */
    uint16_t drained = ahead > 0 ? (uint16_t)(((uint32_t)(uint16_t)ahead * SERIAL_BYTE_RECIPROCAL) >> 16) + 2u : 1u;
    return (uint16_t)Serial.availableForWrite() + drained < TILT_SAMPLE_WIRE + tx_promised;
}

/* While the glass draws, samples are read at most this often: every 2 ms
 * at 16 MHz, every 4 ms at 8 MHz (in proportion at any other clock). A read is 15 bytes and their addressing,
 * about 0.45 ms of a 400 kHz bus, and the loop's time to send its SAMPLE:
 * at 1 kHz, reading every sample left the display half the bus in pieces of
 * half a millisecond (on the Leonardo, whose USB carries them all, 11
 * frames/s instead of the Uno's 21; the 8 MHz Pro Micro's glass stood still;
 * docs/perf/render.md). 2 ms is the pace 115200 baud carries SAMPLEs at, so
 * on a 16 MHz UART board the line is the tighter limit. A sample not read is
 * counted, as the line's are (the host sees the gap); while the glass is
 * idle every sample is read. */
static const uint32_t SENSOR_DRAWING_READ_SPACING_US = (uint32_t)(2000ULL * 16000000ULL / F_CPU);

/* True if the sample due at `due` is left unread for the glass's sake: one
 * was read less than the spacing before (less half a millisecond: the
 * sensor's clock as seen from here moves a little at each resync). */
static bool read_rationed(uint32_t due) {
    if (tilt_pipe_idle(&pipe) && !board.redraw) return false;
    return due - last_read_us < SENSOR_DRAWING_READ_SPACING_US - 500u;
}

/* True if the sample due at `due` is counted without reading it: the line
 * cannot carry it now, or the glass is drawing and a read was due lately. */
static bool sample_skipped(uint32_t due) {
    return Serial.availableForWrite() < (int)TILT_SAMPLE_WIRE || read_rationed(due);
}

/* When the sensor next needs the bus: the display's pieces end before it. */
static uint32_t sensor_bus_due_us(void) {
    uint32_t period = tilt_rate_period_us(board.divider);
    if (sensor_polling || resync_due()) return next_sample_us - poll_window_us(period);
    uint32_t at = next_sample_us + SENSOR_READ_LAG_US;
    /* A sample the line cannot carry or the glass's share rations is counted
     * without the bus (unless its DATA_RDY must be cleared for the next
     * resync): the next one's time. */
    if (since_resync + 1u < SENSOR_RESYNC_EVERY && (read_rationed(next_sample_us) || line_full_at(at)))
        return next_sample_us + period - poll_window_us(period);
    return at;
}

/* The sensor stopped answering (a loose wire): a HELLO says so, so the host
 * names it instead of waiting on a silent board, and the one when it answers
 * again restarts the sequence numbers (the samples it never took are no gap). */
static void sensor_failed(void) {
    sensor_ok = false;
    board.redraw = true;
    send_hello();
}

/* A sample onto the line, stamped with its time on the sensor's clock as
 * seen from here (at, or at most a poll's spacing after, its DATA_RDY): the
 * host's physics gets steady steps, not the loop's jitter. */
static void send_sample(tilt_sample *sample, uint32_t sampled_us) {
    /* The display's next piece goes on the bus before the SAMPLE is encoded
     * and queued (a few hundred microseconds the bus would sit idle), sized
     * as if the SAMPLE were queued already. */
    tx_promised = TILT_SAMPLE_WIRE;
    step_display_bus();
    tx_promised = 0;
    sample->seq = sample_seq++;
    sample->time_us = sampled_us & 0xFFFFFFUL;
    send(tilt_encode_sample(sample, wire_out), false);
}

/* Samples due `late` µs ago or earlier whose DATA_RDY a read now would take
 * together with the next one's (so one of them must go uncounted): those
 * due more than a period, less the clock's slack, before now. Counted as a
 * gap instead, so the sequence numbers stay on the sensor's clock. */
static uint32_t samples_overtaken(int32_t late, uint32_t period) {
    if (late < (int32_t)(period - SENSOR_CLOCK_SLACK_US)) return 0;
    return ((uint32_t)late + SENSOR_CLOCK_SLACK_US) / period;
}

/* INT_STATUS polled from just before the sample is due: found, the sensor's
 * clock is set from it and the data read from 0x3B if the line can carry it.
 * Not found on a resync's poll: the clock stands (the combined read follows
 * at the due time); after a combined read that came too early, polled again
 * until it is there. `asked`: when this poll began. */
static void poll_for_sample(uint32_t period, int32_t late, uint32_t asked) {
    /* The poll's START follows the display's piece on the bus, if any: the
     * time it is asked is then, not before the wait (taken before it, a
     * sample that rose during the wait moved the clock early, a bit at every
     * resync: at 1 kHz a whole period over a second). */
    if (i2c_busy()) {
        i2c_wait();
        asked = micros();
        late = (int32_t)(asked - next_sample_us);
    }
    int8_t ready = mpu6050_data_ready();
    if (ready < 0) return sensor_failed();
    /* Normally DATA_RDY paces us; if it never rises, fall back to the clock. */
    if (ready == 0 && late < (int32_t)period) {
        not_ready_us = asked;
        /* A resync's poll before the sample: the sensor is not ahead of the
         * clock, and the combined read at the due time follows. */
        if (!sensor_polling) since_resync = 0;
        return;
    }
    /* The sample came before this poll's START, a few microseconds after
     * `asked`, and (after a poll that found none) after `not_ready_us`. Then,
     * or if it came before it was due, the new clock is `asked`, but never
     * more than SENSOR_CLOCK_SLACK_US / 2 after the poll that found none: due
     * times are then at most that after the sensor's, so a combined read at
     * one finds its sample. Found at once after it was due, the clock stands:
     * a late pass must not push it later, or it would drift behind the sensor
     * until two samples fell in one period and one went uncounted. */
    uint32_t overtaken = samples_overtaken(late, period);
    uint32_t came = next_sample_us;
    if (overtaken || ready == 0) {
        came = asked;
    } else if (sensor_polling) {
        came = (int32_t)(asked - not_ready_us) > (int32_t)(SENSOR_CLOCK_SLACK_US / 2)
             ? not_ready_us + SENSOR_CLOCK_SLACK_US / 2 : asked;
    } else if (late < 0) {
        came = asked;
    }
    sample_seq = (uint8_t)(sample_seq + overtaken);
    next_sample_us = came + period;
    sensor_polling = false;
    status_clean = true;
    since_resync = 0;
    if (sample_skipped(came)) {
        sample_seq++;
        return;
    }
    tilt_sample sample;
    if (!mpu6050_read_burst(sample.raw)) return sensor_failed();
    last_read_us = came;
    send_sample(&sample, came);
}

static void poll_sensor(void) {
    if (!sensor_ok) return;
    uint32_t period = tilt_rate_period_us(board.divider);
    uint32_t now = micros();
    int32_t late = (int32_t)(now - next_sample_us);
    if (sensor_polling) return poll_for_sample(period, late, now);
    uint32_t overtaken = samples_overtaken(late, period);
    if (overtaken) {
        /* The loop was away too long (a display restart, the EEPROM, a slow
         * pass at 1 kHz): the samples it cannot tell apart are counted, the
         * next one is read, and the clock is checked after it. */
        sample_seq = (uint8_t)(sample_seq + overtaken);
        next_sample_us += overtaken * period;
        status_clean = false;
        since_resync = SENSOR_RESYNC_EVERY;
        return;
    }
    if (resync_due()) {
        /* Until shortly before the next sample is due, the bus is the display's. */
        if (late < -(int32_t)poll_window_us(period)) return;
        return poll_for_sample(period, late, now);
    }
    if (late < (int32_t)SENSOR_READ_LAG_US) return;
    uint32_t due = next_sample_us;
    next_sample_us += period;
    since_resync++;
    /* A sample the line cannot carry now, or the glass's share of the bus
     * rations, is counted (the host sees the gap in the sequence) but not
     * read: at 1 kHz, 115200 baud carries about half the samples, and the bus
     * they would take is the display's. Its DATA_RDY stays set, unless the
     * next sample is to check the clock. */
    if (sample_skipped(due)) {
        sample_seq++;
        if (since_resync >= SENSOR_RESYNC_EVERY) {
            if (mpu6050_data_ready() < 0) return sensor_failed();
            status_clean = true;
        } else {
            status_clean = false;
        }
        return;
    }
    tilt_sample sample;
    int8_t ready = mpu6050_read_status_burst(sample.raw);
    if (ready < 0) return sensor_failed();
    if (ready == 0 && status_clean) {
        /* Not there yet: the sensor's clock runs slower than ours. */
        next_sample_us = due;
        since_resync--;
        not_ready_us = now;
        sensor_polling = true;
        return;
    }
    /* (With DATA_RDY left set by a sample counted without a read, a set flag
     * proves nothing: the read is trusted to the clock, checked every
     * SENSOR_RESYNC_EVERY samples.) */
    status_clean = true;
    last_read_us = due;
    send_sample(&sample, due);
}

/* ---- Frames from the host. */
static void send_parts(void) {
    const tilt_parts parts = {sensor_ok ? mpu6050_found.address : (uint8_t)0, mpu6050_found.who_am_i,
                              display_ok ? ssd1306_address : (uint8_t)0, ssd1306_kind,
                              (uint8_t)((display_stored ? TILT_PARTS_KIND_STORED : 0u)
                                        | (board.pattern ? TILT_PARTS_PATTERN : 0u)
                                        | (display_clock << TILT_PARTS_CLOCK_SHIFT)
                                        | (display_clock_fell_back ? TILT_PARTS_CLOCK_FELL_BACK : 0u))};
    send(tilt_encode_parts(&parts, wire_out), true);
}

static void apply_display_choice(const tilt_display_frame *choice);

static void handle_payload(const uint8_t *payload, uint8_t length) {
    uint32_t token = 0;
    switch (tilt_board_handle(&board, payload, length, millis(), &token)) {
    case TILT_BOARD_SEND_PONG:
        send(tilt_encode_pong(token, wire_out), true);
        break;
    case TILT_BOARD_RECONFIGURE:
        start_sensor();
        send_hello();
        break;
    case TILT_BOARD_SEND_HELLO:
        send_hello();
        break;
    case TILT_BOARD_SEND_PARTS:
        send_parts();
        break;
    case TILT_BOARD_DISPLAY:
        apply_display_choice(&board.display);
        send_parts();
        break;
    case TILT_BOARD_NOTHING:
        break; /* OFFSETS, DRAWER, PIN (kept for the screen), or anything skipped */
    }
}

static void poll_serial(void) {
    /* Bounded: at most one RX buffer's worth per pass. */
    for (uint8_t n = 0; n < 64 && Serial.available() > 0; n++) {
        const uint8_t *payload;
        uint8_t length;
        if (tilt_rx_push(&rx, (uint8_t)Serial.read(), &payload, &length) == TILT_RX_FRAME) {
            handle_payload(payload, length);
        }
    }
}

/* ---- Screen. The bus time left before the sensor's next sample is due:
 * the sensor's clock comes first, so at 1 kHz a frame takes longer to draw
 * rather than samples going missing. */
static int32_t bus_time_left_us(void) {
    if (!sensor_ok) return TILT_PIPE_NO_DEADLINE;
    return (int32_t)(sensor_bus_due_us() - micros()) + TILT_PIPE_SAMPLE_MARGIN_US;
}

/* The page pipe from scratch: nothing in flight, the display's cursor and
 * glass not known (the next frame goes out whole). */
static void pipe_start_over(void) {
    tilt_pipe_reset(&pipe);
    pipe.continuous = ssd1306_horizontal;
    in_flight = TILT_PIPE_WAIT;
    chained_count = 0;
    glass_known = 0;
}

static void display_failed(void) {
    display_ok = false;
    pipe_start_over();
}

static void send_ready(uint32_t time_us, uint8_t flags) {
    send(tilt_encode_ready(time_us & 0xFFFFFFUL, flags, wire_out), false);
}

static void render_scene_span(const tilt_view *view, const tilt_drawer *d, uint8_t page, uint8_t column,
                              uint8_t count, uint8_t *out) {
    const tilt_scene scene = {d->height, d->shown, d->scroll, d->current, d->drag_item,
                              d->drag_left, d->drag_top, d->pin_count, board.pins};
    tilt_render_scene_span(&art, view, &scene, page, column, count, out);
}

static void render_span(uint8_t count) {
    uint8_t page = pipe.render_page, column = pipe.render_column;
    uint8_t *out = &page_buffers[page & 1][column];
    uint8_t bit = (uint8_t)(1u << page);
    bool scene = latched.live && !latched.pattern;
    if (column == 0) {
        page_compared = scene && (glass_known & bit) && page_pins[page] == board.pin_changes
                        && tilt_pipe_compare_wanted(&pipe);
        page_pins[page] = board.pin_changes;
        if (scene) glass_known |= bit;
        else glass_known &= (uint8_t)~bit;
    } else if (page_compared) {
        page_compared = tilt_pipe_compare_wanted(&pipe);
    }
    if (page_pins[page] != board.pin_changes) {
        page_compared = false;
        glass_known &= (uint8_t)~bit;
    }
    if (latched.pattern) {
        tilt_status_pattern_span(ssd1306_kind, page, column, count, out);
    } else if (latched.live) {
        render_scene_span(&latched.view, &latched.drawer, page, column, count, out);
    } else {
        const tilt_status_info info = {FIRMWARE_MAJOR, FIRMWARE_MINOR, FIRMWARE_PATCH, latched.sensor,
                                       mpu6050_found.who_am_i, mpu6050_found.address, ssd1306_kind,
                                       display_stored};
        tilt_status_span(&info, page, column, count, out);
    }
    if (page_compared) {
        uint8_t glass[TILT_PIPE_RENDER_SPAN];
        render_scene_span(&before.view, &before.drawer, page, column, count, glass);
        tilt_pipe_compared(&pipe, count, out, glass);
    } else {
        tilt_pipe_rendered(&pipe, count);
    }
}

/* A piece on the bus and the next one rendered: chained to it by the
 * interrupt if it fits before the sensor's next read, so the bus does not
 * wait for the loop between pages. The time the piece on the bus still
 * takes: its bytes left at 24 µs (a byte's time rounded up, no division). */
static void chain_next_piece(void) {
    if (in_flight == TILT_PIPE_WAIT || chained_count) return;
    int32_t left = bus_time_left_us();
    if (left != TILT_PIPE_NO_DEADLINE) left -= (int32_t)i2c_bytes_left() * display_byte_us;
    uint8_t page, column, count;
    if (tilt_pipe_next_chained(&pipe, in_flight, in_flight_count, left, display_byte_time, &page, &column, &count)
        && ssd1306_chain_data_async(&page_buffers[page & 1][column], count))
        chained_count = count;
}

/* The bus: account for the transfer that ended and start the next piece. */
static void step_display_bus(void) {
    if (!display_ok) return;
    /* The interrupt went on to the chained piece: the one before it ended
     * (its page buffer is free for the next page's rendering). */
    if (chained_count && !i2c_chain_waiting()) {
        tilt_pipe_sent(&pipe, in_flight, in_flight_count);
        in_flight = TILT_PIPE_DATA;
        in_flight_count = chained_count;
        chained_count = 0;
    }
    /* The transfer in flight ended: account for it. */
    if (in_flight != TILT_PIPE_WAIT) {
        bool ok;
        if (i2c_async_done(&ok)) {
            if (!ok) {
                display_failed();
                return;
            }
            tilt_pipe_sent(&pipe, in_flight, in_flight_count);
            if (chained_count) tilt_pipe_sent(&pipe, TILT_PIPE_DATA, chained_count);
            in_flight = TILT_PIPE_WAIT;
            chained_count = 0;
        }
    }
    /* The bus is free: the next command or data piece. */
    if (in_flight == TILT_PIPE_WAIT && !i2c_busy()) {
        uint8_t count;
        tilt_pipe_step step = tilt_pipe_next(&pipe, bus_time_left_us(), display_byte_time, &count);
        if (step == TILT_PIPE_COMMAND)
            ssd1306_write_page_async(pipe.send_page, pipe.send_column,
                                     &page_buffers[pipe.send_page & 1][pipe.send_column], count);
        else if (step == TILT_PIPE_DATA)
            ssd1306_write_data_async(&page_buffers[pipe.send_page & 1][pipe.send_column], count);
        in_flight = step;
        in_flight_count = count;
    }
}

/* Data bytes of the piece in flight already on the bus (step_display_bus has
 * just accounted for a chained piece that started). A page command's data
 * waits chained behind the command until the command is out. */
static uint8_t in_flight_sent(void) {
    if (in_flight == TILT_PIPE_WAIT) return 0;
    uint8_t left = (in_flight == TILT_PIPE_COMMAND && i2c_chain_waiting() && !chained_count) ? in_flight_count
                                                                                             : i2c_bytes_left();
    return left < in_flight_count ? (uint8_t)(in_flight_count - left) : 0;
}

static void step_display(void) {
    step_display_bus();
    if (!display_ok) return;
    /* Frame sync: READY shortly before the next latch, and once on falling idle. */
    if (board.sync) {
        uint32_t until_latch_us;
        if (tilt_pipe_ready_due(&pipe, display_byte_time, in_flight_sent(), &until_latch_us)) {
            send_ready(micros() + until_latch_us, 0);
            tilt_pipe_ready_sent(&pipe);
        } else if (tilt_pipe_idle_ready_due(&pipe, board.idle_ready_owed, board.redraw)) {
            send_ready(micros(), TILT_READY_IDLE);
            board.idle_ready_owed = false;
        }
    }
    if (tilt_pipe_wants_latch(&pipe, board.redraw)) {
        board.redraw = false;
        board.idle_ready_owed = true;
        before.view = latched.view; /* the frame the glass shows once its last page is out */
        before.drawer = latched.drawer;
        latched.live = board.host_live;
        latched.pattern = board.pattern;
        latched.sensor = sensor_ok;
        latched.view = board.wanted;
        latched.drawer = board.drawer;
        tilt_pipe_latched(&pipe);
    }
    uint8_t span = tilt_pipe_render_span(&pipe);
    if (span) render_span(span);
    /* Nothing to render: the loop's time is the bus's. Bounded, so the loop
     * still reads the host's frames and the sensor on time. */
    else if (in_flight != TILT_PIPE_WAIT) {
        chain_next_piece();
        if (i2c_pump(PUMP_BYTES)) step_display_bus();
    }
}

/* ---- The display: the kind stored in the EEPROM (`tiltserial setup`),
 * else the kind the build names (`make DISPLAY_KIND=2` for a 128x32 module,
 * which cannot be detected), else detected (SSD1306 or SH1106); at the
 * clock stored (400 kHz unless `tiltserial setup --display-clock` chose
 * another), or the slower one it answers at. TWBR for a clock
 * (TILT_DISPLAY_CLOCK_*): constants, no division. */
static uint8_t display_twbr(uint8_t clock) {
    if (clock == TILT_DISPLAY_CLOCK_1MHZ) return I2C_TWBR(1000000UL);
    if (clock == TILT_DISPLAY_CLOCK_800KHZ) return I2C_TWBR(800000UL);
    if (clock == TILT_DISPLAY_CLOCK_100KHZ) return I2C_TWBR(100000UL);
    return I2C_TWBR(I2C_CLOCK_HZ);
}

/* Begins the display as `kind` (TILT_SETTINGS_NO_KIND: detected) at
 * `clock`; at 400 kHz if it does not answer at a faster one, and at 100 kHz
 * if not at 400 (a bus too slow for fast mode: the host names the fix). */
static bool begin_display_at(uint8_t kind, uint8_t clock) {
    const uint8_t stored = clock;
    for (;;) {
        /* Past F_CPU / 16 (TWBR 0: 500 kHz at 8 MHz) no TWBR makes the clock: 400 kHz. */
        if ((clock == TILT_DISPLAY_CLOCK_1MHZ && F_CPU / 16UL < 1000000UL)
            || (clock == TILT_DISPLAY_CLOCK_800KHZ && F_CPU / 16UL < 800000UL)) clock = TILT_DISPLAY_CLOCK_400KHZ;
        display_clock = clock;
        display_clock_fell_back = clock != stored;
        i2c_set_display_twbr(display_twbr(clock));
        uint32_t byte_ns = i2c_display_byte_ns();
        display_byte_time = (uint16_t)(byte_ns / TILT_PIPE_BYTE_TIME_NS);
        display_byte_us = (uint8_t)((byte_ns + 999u) / 1000u);
        tilt_pipe_set_byte_time(&pipe, display_byte_time);
        bool ok = kind == TILT_SETTINGS_NO_KIND ? ssd1306_begin() : ssd1306_begin_as(kind);
        if (ok || clock == TILT_DISPLAY_CLOCK_100KHZ) return ok;
        clock = clock == TILT_DISPLAY_CLOCK_400KHZ ? TILT_DISPLAY_CLOCK_100KHZ : TILT_DISPLAY_CLOCK_400KHZ;
    }
}

static bool begin_display(void) {
    tilt_settings stored = settings_load();
    display_stored = stored.kind != TILT_SETTINGS_NO_KIND;
#ifdef DISPLAY_KIND
    if (!display_stored) stored.kind = DISPLAY_KIND;
#endif
    return begin_display_at(stored.kind, stored.clock);
}

/* The display begun again (after a DISPLAY frame): the page pipe starts over
 * and the screen is redrawn whole. */
static void restart_display(bool ok) {
    display_ok = ok;
    pipe_start_over();
    board.redraw = true;
}

/* DISPLAY: try a kind (the test pattern shows, tilt_board.c; the kind in use
 * is then not the stored one), store it, forget it, store the display's
 * clock, or go back to the stored or detected kind; at once, once the
 * transfer on the bus has ended. */
static void apply_display_choice(const tilt_display_frame *choice) {
    i2c_wait();
    tilt_settings stored = settings_load();
    switch (choice->op) {
    case TILT_DISPLAY_TRY:
        display_stored = false;
        restart_display(begin_display_at(choice->kind, stored.clock));
        return;
    case TILT_DISPLAY_STORE:
        stored.kind = choice->kind;
        settings_store(&stored);
        break;
    case TILT_DISPLAY_CLEAR:
        stored.kind = TILT_SETTINGS_NO_KIND;
        settings_store(&stored);
        break;
    case TILT_DISPLAY_SET_CLOCK:
        stored.clock = choice->kind;
        settings_store(&stored);
        break;
    default:
        break;
    }
    restart_display(begin_display());
}

/* ---- Host timeout and re-probing parts that did not answer. */
static void check_timers(void) {
    uint32_t now = millis();
    tilt_board_host_timed_out(&board, now);
    if ((!sensor_ok || !display_ok) && now - last_probe_ms > PROBE_INTERVAL_MS) {
        last_probe_ms = now;
        if (!display_ok && begin_display()) {
            display_ok = true;
            pipe_start_over();
            board.redraw = true;
        }
        if (!sensor_ok) {
            start_sensor();
            if (sensor_ok) {
                board.redraw = true;
                send_hello();
            }
        }
    }
}

void setup(void) {
    tilt_board_init(&board, DEFAULT_SAMPLE_RATE_HZ, DEFAULT_ACCEL_FS, DEFAULT_GYRO_FS);
    Serial.begin(SERIAL_BAUD);
    i2c_begin();
    display_ok = begin_display();
    pipe.continuous = ssd1306_horizontal;
    start_sensor();
    last_probe_ms = millis();
    wdt_enable(WDTO_1S);
    /* A reset can cut a frame short on the line: a delimiter first ends that run,
     * so the boot HELLO never merges with it into one bad frame (docs/protocol.md). */
    Serial.write((uint8_t)0);
    send_hello();
}

void loop(void) {
    wdt_reset();
    poll_serial();
    poll_sensor();
    step_display();
    check_timers();
}
