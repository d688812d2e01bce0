/*
 * tiltserial companion firmware for Arduino Uno / Nano (ATmega328P, 16 MHz).
 *
 * Streams MPU-6050 readings to the host as SAMPLE frames and draws the host's
 * OFFSETS, DRAWER and PIN on a 128x64 SSD1306: the viewport of the content tile,
 * the pins, the ribbon, the drawer and the dragged item, pixel for pixel as
 * docs/display.md defines it. Protocol: docs/protocol.md.
 * Wiring and flashing: docs/hardware.md.
 *
 * The loop never blocks for long: each pass reads the serial line, takes at most
 * one sensor sample, and sends at most one chunk (<= 31 bytes) of the screen, so
 * samples keep flowing while a frame is being drawn. The watchdog resets the
 * board if anything (a stuck I2C bus) stops the loop for 1 s.
 */
#include <Arduino.h>
#include <avr/pgmspace.h>
#include <avr/wdt.h>
#include <Wire.h> /* named here so the Arduino IDE links the Wire library */

#include "assets.h"
#include "config.h"
#include "i2c.h"
#include "mpu6050.h"
#include "ssd1306.h"
#include "src/core/tilt_board.h"
#include "src/core/tilt_frames.h"
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
static uint8_t sample_seq;
/* The sensor's clock as seen from here: when its next sample is due (never
 * later than the truth, as far as the reads show), and the last time a read
 * found no new sample (so this one came after). */
static uint32_t next_sample_us, not_ready_us;
static bool seen_not_ready;
static uint32_t last_probe_ms;

/* The frame being sent: latched at its start so one frame never mixes two views
 * (the pin table is not latched: a PIN mid-frame shows from the next frame on). */
static struct {
    bool active, live, sensor;
    tilt_view view;
    tilt_drawer drawer;
    uint8_t page, column;
    bool page_open; /* the display's cursor is at (page, column) */
} drawing;

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
    tilt_board_reset_scene(&board);
}

/* ---- Sensor. */
static void start_sensor(void) {
    sensor_ok = mpu6050_begin(board.divider, board.accel_fs, board.gyro_fs);
    next_sample_us = micros() + tilt_rate_period_us(board.divider);
    seen_not_ready = false;
}

static void poll_sensor(void) {
    if (!sensor_ok) return;
    /* Until shortly before the next sample is due, the bus is the display's. */
    uint32_t period = tilt_rate_period_us(board.divider);
    uint32_t asked = micros();
    if ((int32_t)(asked - next_sample_us) < -(int32_t)(period / 8)) return;
    int8_t ready = mpu6050_data_ready();
    uint32_t now = micros();
    int32_t late = (int32_t)(now - next_sample_us);
    if (ready < 0) {
        sensor_ok = false;
        board.redraw = true;
        return;
    }
    /* Normally DATA_RDY paces us; if it never rises, fall back to the clock. */
    if (ready == 0 && late < (int32_t)period) {
        seen_not_ready = true;
        not_ready_us = asked;
        return;
    }
    /* Keep to the sensor's clock, not to when we looked. At 1 kHz a pass that
     * reads and queues a sample takes about 1.1 ms, so the next sample is seen
     * late; timing from then would drift behind the sensor until two of its
     * samples fell between reads, one never counted, and would leave the
     * display less time than it has. So: the sample came after the last read
     * that found none; failing that, when it was due; failing that, now. */
    uint32_t came;
    if (seen_not_ready) came = not_ready_us;
    else if (late >= 0 && late < (int32_t)period) came = next_sample_us;
    else came = now;
    next_sample_us = came + period;
    seen_not_ready = false;
    /* A sample the line cannot carry now is counted (the host sees the gap in
     * the sequence) but not read: at 1 kHz, 115200 baud carries about half the
     * samples, and skipping the 14-byte read of the others is what lets the
     * loop keep up with the sensor's clock on a 400 kHz bus. */
    if (Serial.availableForWrite() < (int)TILT_SAMPLE_WIRE) {
        sample_seq++;
        return;
    }
    tilt_sample sample;
    if (!mpu6050_read_burst(sample.raw)) {
        sensor_ok = false;
        board.redraw = true;
        return;
    }
    sample.seq = sample_seq++;
    sample.time_us = now & 0xFFFFFFUL;
    send(tilt_encode_sample(&sample, wire_out), false);
}

/* ---- Frames from the host. */
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

/* ---- Screen: one chunk per call, sized to the time left before the sensor's
 * next sample is due: the sensor's clock comes first, so at 1 kHz a frame
 * takes longer to draw rather than samples going missing. */
static uint8_t display_bytes_before_next_sample(void) {
    if (!sensor_ok) return 255;
    const int32_t margin_us = 100;
    int32_t left = (int32_t)(next_sample_us - micros()) - margin_us;
    if (left <= 0) return 0;
    return (uint8_t)min((uint32_t)left / DISPLAY_BYTE_US, 255UL);
}

static void step_display(void) {
    if (!display_ok) return;
    if (!drawing.active) {
        if (!board.redraw) return;
        board.redraw = false;
        drawing.active = true;
        drawing.live = board.host_live;
        drawing.sensor = sensor_ok;
        drawing.view = board.wanted;
        drawing.drawer = board.drawer;
        drawing.page = 0;
        drawing.column = 0;
        drawing.page_open = false;
    }
    /* A transfer costs its address and control bytes besides its data; the
     * page command takes five bytes in all. */
    uint8_t budget = display_bytes_before_next_sample();
    if (!drawing.page_open) {
        if (budget < 5) return;
        if (!ssd1306_set_page(drawing.page)) {
            display_ok = false;
            drawing.active = false;
            return;
        }
        drawing.page_open = true;
        budget = display_bytes_before_next_sample();
    }
    if (budget < 2 + 4) return; /* too little for a useful chunk: a later pass */
    uint8_t chunk[SSD1306_CHUNK];
    uint8_t count = (uint8_t)min(min(SSD1306_CHUNK, budget - 2), TILT_DISPLAY_WIDTH - drawing.column);
    if (drawing.live) {
        const tilt_drawer *d = &drawing.drawer;
        const tilt_scene scene = {d->height, d->shown, d->scroll, d->current, d->drag_item,
                                  d->drag_left, d->drag_top, d->pin_count, board.pins};
        tilt_render_scene_span(&art, &drawing.view, &scene, drawing.page, drawing.column, count, chunk);
    } else {
        const tilt_status_info info = {FIRMWARE_MAJOR, FIRMWARE_MINOR, FIRMWARE_PATCH, drawing.sensor,
                                       mpu6050_found.who_am_i, mpu6050_found.address};
        tilt_status_span(&info, drawing.page, drawing.column, count, chunk);
    }
    if (!ssd1306_write_data(chunk, count)) {
        display_ok = false;
        drawing.active = false;
        return;
    }
    drawing.column += count;
    if (drawing.column >= TILT_DISPLAY_WIDTH) {
        drawing.column = 0;
        drawing.page_open = false;
        if (++drawing.page == TILT_DISPLAY_PAGES) drawing.active = false;
    }
}

/* ---- Host timeout and re-probing parts that did not answer. */
static void check_timers(void) {
    uint32_t now = millis();
    tilt_board_host_timed_out(&board, now);
    if ((!sensor_ok || !display_ok) && now - last_probe_ms > PROBE_INTERVAL_MS) {
        last_probe_ms = now;
        if (!display_ok && i2c_probe(SSD1306_ADDRESS)) {
            display_ok = ssd1306_begin();
            board.redraw = true;
        }
        if (!sensor_ok) {
            start_sensor();
            if (sensor_ok) board.redraw = true;
        }
    }
}

void setup(void) {
    tilt_board_init(&board, DEFAULT_SAMPLE_RATE_HZ, DEFAULT_ACCEL_FS, DEFAULT_GYRO_FS);
    Serial.begin(SERIAL_BAUD);
    i2c_begin();
    display_ok = ssd1306_begin();
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
