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
static uint32_t last_sample_us;
static uint32_t last_probe_ms;

/* The frame being sent: latched at its start so one frame never mixes two views
 * (the pin table is not latched: a PIN mid-frame shows from the next frame on). */
static struct {
    bool active, live, sensor;
    tilt_view view;
    tilt_drawer drawer;
    uint8_t page, column;
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
    last_sample_us = micros();
}

static void poll_sensor(void) {
    if (!sensor_ok) return;
    /* The next sample cannot be ready much before a period has passed: skip the
     * INT_STATUS read until then, leaving the bus to the display. */
    uint32_t period = tilt_rate_period_us(board.divider);
    if (micros() - last_sample_us < period - period / 4) return;
    int8_t ready = mpu6050_data_ready();
    uint32_t now = micros();
    /* Normally DATA_RDY paces us; if it never rises, fall back to the clock. */
    if (ready == 0 && now - last_sample_us < 2 * period) return;
    tilt_sample sample;
    if (ready < 0 || !mpu6050_read_burst(sample.raw)) {
        sensor_ok = false;
        board.redraw = true;
        return;
    }
    last_sample_us = now;
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

/* ---- Screen: one chunk per call. */
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
    }
    if (drawing.column == 0 && !ssd1306_set_page(drawing.page)) {
        display_ok = false;
        drawing.active = false;
        return;
    }
    uint8_t chunk[SSD1306_CHUNK];
    uint8_t count = (uint8_t)min(SSD1306_CHUNK, TILT_DISPLAY_WIDTH - drawing.column);
    if (drawing.live) {
        const tilt_drawer *d = &drawing.drawer;
        const tilt_scene scene = {d->height, d->shown, d->scroll, d->current, d->drag_item,
                                  d->drag_left, d->drag_top, d->pin_count, board.pins};
        tilt_render_scene_span(&art, &drawing.view, &scene, drawing.page, drawing.column, count, chunk);
    } else {
        const tilt_status_info info = {FIRMWARE_MAJOR, FIRMWARE_MINOR, FIRMWARE_PATCH, drawing.sensor};
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
