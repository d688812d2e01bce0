/*
 * fwcheck: runs the built firmware (build/tiltserial.elf) in simavr with
 * simavr's own ssd1306_virt at 0x3C and a small register-level MPU-6050 at 0x68,
 * talks protocol v1 to it over the UART and checks what it does:
 *   HELLO at start (version, status bits, tile id), SAMPLE frames with
 *   consecutive sequence numbers at the configured rate, PONG for PING, HELLO
 *   for HOST_HELLO and CONFIGURE, the drawn screen equal byte for byte to the
 *   shared C renderer (which the Swift tests prove equal to the host's) for
 *   several OFFSETS, survival of garbage on the line, and the waiting screen
 *   after 1 s without OFFSETS.
 * Exit status 0 when every check passes. Usage: fwcheck build/tiltserial.elf
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avr_twi.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <ssd1306_virt.h>

#include "../tiltserial/assets.h"
#include "../tiltserial/src/core/tilt_frames.h"
#include "../tiltserial/src/core/tilt_render.h"

static avr_t *avr;
static ssd1306_t oled;
static int failures;

static void check(int ok, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("%s ", ok ? "ok  " : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!ok) failures++;
}

/* ---- A register-level MPU-6050: pointer write, auto-increment, DATA_RDY at the
 * rate SMPLRT_DIV gives (DLPF on: 1 kHz / (1 + div)), cleared by reading INT_STATUS. */
static struct {
    uint8_t regs[128];
    uint8_t pointer, selected, first_write;
    uint64_t next_sample_cycle;
    uint32_t samples;
} mpu;

static void mpu_tick(void) {
    if (mpu.regs[0x6B] & 0x40) return; /* asleep */
    uint64_t period = (uint64_t)16000 * (1 + mpu.regs[0x19]);
    if (avr->cycle >= mpu.next_sample_cycle) {
        mpu.next_sample_cycle = avr->cycle + period;
        mpu.samples++;
        int16_t values[7] = {(int16_t)(mpu.samples * 3), -200, 16384, 1000, 10, -10, (int16_t)mpu.samples};
        for (int i = 0; i < 7; i++) {
            mpu.regs[0x3B + 2 * i] = (uint8_t)(values[i] >> 8);
            mpu.regs[0x3C + 2 * i] = (uint8_t)values[i];
        }
        if (mpu.regs[0x38] & 1) mpu.regs[0x3A] |= 1;
    }
}

static void mpu_twi_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)param;
    avr_twi_msg_irq_t v;
    v.u.v = value;
    if (v.u.twi.msg & TWI_COND_STOP) mpu.selected = 0;
    if (v.u.twi.msg & TWI_COND_START) {
        mpu.selected = (v.u.twi.addr >> 1) == 0x68;
        mpu.first_write = 1;
        if (mpu.selected) avr_raise_irq(irq - TWI_IRQ_OUTPUT + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_ACK, v.u.twi.addr, 1));
    }
    if (!mpu.selected) return;
    if (v.u.twi.msg & TWI_COND_WRITE) {
        avr_raise_irq(irq - TWI_IRQ_OUTPUT + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_ACK, v.u.twi.addr, 1));
        if (mpu.first_write) {
            mpu.pointer = v.u.twi.data & 0x7F;
            mpu.first_write = 0;
        } else {
            mpu.regs[mpu.pointer] = v.u.twi.data;
            mpu.pointer = (mpu.pointer + 1) & 0x7F;
        }
    }
    if (v.u.twi.msg & TWI_COND_READ) {
        uint8_t data = mpu.regs[mpu.pointer];
        if (mpu.pointer == 0x3A) mpu.regs[0x3A] &= (uint8_t)~1;
        mpu.pointer = (mpu.pointer + 1) & 0x7F;
        avr_raise_irq(irq - TWI_IRQ_OUTPUT + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_READ, v.u.twi.addr, data));
    }
}

/* ---- UART: frames from the board are decoded as they arrive. */
static tilt_rx rx;
static struct {
    int hellos, samples, pongs, errors, seq_gaps, first_seq_not_zero;
    tilt_hello hello;
    uint32_t pong;
    int last_seq;
    uint32_t first_time, last_time;
} got;

static void uart_out_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)param;
    const uint8_t *p;
    uint8_t n;
    tilt_rx_event e = tilt_rx_push(&rx, (uint8_t)value, &p, &n);
    if (e == TILT_RX_NONE) return;
    if (e != TILT_RX_FRAME) { got.errors++; return; }
    tilt_sample s;
    if (tilt_decode_hello(p, n, &got.hello)) { got.hellos++; got.last_seq = -1; }
    else if (tilt_decode_sample(p, n, &s)) {
        if (got.last_seq >= 0 && s.seq != (uint8_t)(got.last_seq + 1)) got.seq_gaps++;
        if (got.last_seq < 0 && s.seq != 0) got.first_seq_not_zero++;
        if (got.samples == 0) got.first_time = s.time_us;
        got.last_time = s.time_us;
        got.last_seq = s.seq;
        got.samples++;
    } else if (tilt_decode_pong(p, n, &got.pong)) got.pongs++;
    else got.errors++;
}

/* Bytes to the board, paced at the line rate (87 us per byte at 115200). */
static uint8_t tx_queue[4096];
static size_t tx_head, tx_tail;
static uint64_t next_tx_cycle;
static avr_irq_t *uart_in;

static void queue(const uint8_t *bytes, size_t n) {
    for (size_t i = 0; i < n && tx_tail < sizeof tx_queue; i++) tx_queue[tx_tail++] = bytes[i];
}

static void run_ms(uint32_t ms) {
    uint64_t end = avr->cycle + (uint64_t)ms * 16000;
    while (avr->cycle < end) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            check(0, "firmware stopped (state %d)", state);
            exit(1);
        }
        mpu_tick();
        if (tx_head < tx_tail && avr->cycle >= next_tx_cycle) {
            avr_raise_irq(uart_in, tx_queue[tx_head++]);
            next_tx_cycle = avr->cycle + 1389;
        }
    }
}

static void send_offsets(uint16_t vx, uint16_t vy, uint16_t rx_, uint16_t rb, uint8_t seq) {
    tilt_offsets o = {seq, vx, vy, rx_, rb, 0};
    uint8_t w[TILT_MAX_WIRE];
    queue(w, tilt_encode_offsets(&o, w));
}

static int vram_equals_render(uint16_t vx, uint16_t vy, uint16_t rx_, uint16_t rb) {
    tilt_art art = {asset_tile, TILE_WIDTH, TILE_HEIGHT, asset_ribbon_drawn, asset_ribbon_lit,
                    RIBBON_WIDTH, RIBBON_HEIGHT, tilt_read_ram};
    tilt_view view = {vx, vy, rx_, rb};
    uint8_t page[128];
    int diff = 0;
    for (uint8_t p = 0; p < 8; p++) {
        tilt_render_span(&art, &view, p, 0, 128, page);
        for (int c = 0; c < 128; c++) diff += page[c] != oled.vram[p][c];
    }
    if (diff) printf("     %d of 1024 bytes differ\n", diff);
    return diff == 0;
}

static int vram_lit_bytes(uint8_t page) {
    int n = 0;
    for (int c = 0; c < 128; c++) n += oled.vram[page][c] != 0;
    return n;
}

/* No MPU-6050 on the bus: HELLO says so, no samples, the NO SENSOR screen, the
 * board keeps answering (and is not reset by its watchdog: no second HELLO). */
static int check_without_sensor(void) {
    run_ms(3000);
    check(got.hellos == 1, "one HELLO in 3 s without a sensor (no watchdog resets; got %d)", got.hellos);
    check(got.hello.status == TILT_STATUS_DISPLAY, "HELLO status: display only (0x%02x)", got.hello.status);
    check(got.samples == 0, "no SAMPLE frames without a sensor (%d)", got.samples);
    check(vram_lit_bytes(3) > 20 && vram_lit_bytes(5) > 20, "NO SENSOR screen drawn");
    uint8_t w[TILT_MAX_WIRE];
    queue(w, tilt_encode_ping(7, w));
    run_ms(50);
    check(got.pongs == 1 && got.pong == 7, "PING still answered");
    printf("%s: %d failure(s)\n", failures ? "fwcheck --no-sensor FAILED" : "fwcheck --no-sensor passed", failures);
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    int no_sensor = argc == 3 && strcmp(argv[1], "--no-sensor") == 0;
    if (argc != 2 && !no_sensor) { fprintf(stderr, "usage: fwcheck [--no-sensor] FIRMWARE.elf\n"); return 2; }
    const char *path = argv[argc - 1];
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(path, &fw) != 0) { fprintf(stderr, "fwcheck: cannot read %s\n", path); return 2; }
    strcpy(fw.mmcu, "atmega328p"); /* Arduino ELFs carry no .mmcu section */
    fw.frequency = 16000000;
    avr = avr_make_mcu_by_name(fw.mmcu);
    avr_init(avr);
    avr_load_firmware(avr, &fw);

    ssd1306_init(avr, &oled, 128, 64);
    ssd1306_wiring_t wiring = {.chip_select = {'B', 2}, .data_instruction = {'B', 1}, .reset = {'B', 0}};
    ssd1306_connect_twi(&oled, &wiring);

    mpu.regs[0x75] = 0x68;
    mpu.regs[0x6B] = 0x40; /* reset value: asleep */
    avr_irq_t *twi_out = avr_io_getirq(avr, AVR_IOCTL_TWI_GETIRQ(0), TWI_IRQ_OUTPUT);
    if (!no_sensor) avr_irq_register_notify(twi_out, mpu_twi_hook, NULL);
    /* mpu_twi_hook answers on the input irq, found from the output one. */
    if (avr_io_getirq(avr, AVR_IOCTL_TWI_GETIRQ(0), TWI_IRQ_INPUT) != twi_out - TWI_IRQ_OUTPUT + TWI_IRQ_INPUT) {
        fprintf(stderr, "fwcheck: unexpected TWI irq layout\n");
        return 2;
    }
    uint32_t uart_flags = 0; /* no stdio echo, no sleeping on empty polls; we pace input ourselves */
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &uart_flags);
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out_hook, NULL);
    got.last_seq = -1;
    if (no_sensor) return check_without_sensor();

    /* 1. Start-up: HELLO, samples at 100 Hz, the waiting screen. */
    run_ms(600);
    check(got.hellos == 1, "one HELLO at start (got %d)", got.hellos);
    check(got.hello.version == 1 && got.hello.display_width == 128 && got.hello.display_height == 64,
          "HELLO version 1, display 128x64");
    check(got.hello.status == 3, "HELLO status: sensor and display answered (0x%02x)", got.hello.status);
    check(got.hello.tile_id == TILE_ID, "HELLO tile id 0x%04X = assets.h TILE_ID", got.hello.tile_id);
    check(got.hello.sample_rate_hz == 100 && got.hello.accel_fs == 0 && got.hello.gyro_fs == 0, "HELLO 100 Hz, +-2 g, +-250 dps");
    int samples_at_start = got.samples;
    check(samples_at_start >= 40 && samples_at_start <= 62, "about 100 samples/s (%d in 0.6 s, after init)", samples_at_start);
    check(got.seq_gaps == 0 && got.errors == 0, "no sequence gaps (%d), no bad frames (%d)", got.seq_gaps, got.errors);
    check(vram_lit_bytes(3) > 20 && vram_lit_bytes(0) == 0, "waiting screen drawn (text on page 3)");
    uint8_t waiting[8][128];
    memcpy(waiting, oled.vram, sizeof waiting);

    /* 2. PING -> PONG; HOST_HELLO -> HELLO with the sequence restarted. */
    uint8_t w[TILT_MAX_WIRE];
    queue(w, tilt_encode_ping(0xCAFEF00D, w));
    queue(w, tilt_encode_host_hello(1, w));
    run_ms(50);
    check(got.pongs == 1 && got.pong == 0xCAFEF00D, "PONG echoes the PING token");
    check(got.hellos == 2, "HOST_HELLO answered with HELLO");

    /* 3. OFFSETS: the screen equals the shared renderer, pixel for pixel. */
    static const uint16_t views[][4] = {
        {0, 0, 0, 0}, {3, 5, 60, 30}, {130, 77, 200, 120}, {384, 192, 500, 250}, {255, 127, 250, 140}, {17, 250, 20, 255},
    };
    for (unsigned i = 0; i < sizeof views / sizeof views[0]; i++) {
        send_offsets(views[i][0], views[i][1], views[i][2], views[i][3], (uint8_t)i);
        run_ms(120);
        check(vram_equals_render(views[i][0], views[i][1], views[i][2], views[i][3]),
              "screen = renderer for vx %u vy %u rx %u rb %u", views[i][0], views[i][1], views[i][2], views[i][3]);
    }
    check(got.seq_gaps == 0, "samples kept flowing without gaps while drawing (%d samples)", got.samples);

    /* A figure, not a check: simulated time from the end of an OFFSETS frame to
     * the whole new frame on the screen (simavr times an I2C byte as 9 us). */
    send_offsets(222, 111, 250, 150, 40);
    run_ms(2);
    uint64_t start = avr->cycle;
    int frame_ms = -1;
    for (int ms = 0; ms < 200 && frame_ms < 0; ms++) {
        int done = 1;
        tilt_art art = {asset_tile, TILE_WIDTH, TILE_HEIGHT, asset_ribbon_drawn, asset_ribbon_lit,
                        RIBBON_WIDTH, RIBBON_HEIGHT, tilt_read_ram};
        tilt_view view = {222, 111, 250, 150};
        uint8_t page[128];
        for (uint8_t p = 0; p < 8 && done; p++) {
            tilt_render_span(&art, &view, p, 0, 128, page);
            done = memcmp(page, oled.vram[p], 128) == 0;
        }
        if (done) frame_ms = (int)((avr->cycle - start) / 16000);
        else run_ms(1);
    }
    printf("info OFFSETS to full frame on screen: %d ms simulated\n", frame_ms);

    /* OFFSETS streamed at 60 Hz for a second, as the host sends them: the
     * screen ends on the last view and samples never skip. */
    int gaps = got.seq_gaps;
    for (int i = 0; i < 60; i++) {
        send_offsets((uint16_t)(i * 5), (uint16_t)(i * 3), (uint16_t)(i * 5 + 50), (uint16_t)(i * 3 + 40), (uint8_t)(100 + i));
        run_ms(i % 3 == 2 ? 16 : 17);
    }
    run_ms(100);
    check(vram_equals_render(59 * 5, 59 * 3, 59 * 5 + 50, 59 * 3 + 40), "after 60 OFFSETS at 60 Hz the screen shows the last one");
    check(got.seq_gaps == gaps, "no sample lost while streaming OFFSETS");

    /* 4. Garbage on the line: resync on 0x00, next OFFSETS still drawn. */
    uint8_t garbage[600];
    for (unsigned i = 0; i < sizeof garbage; i++) garbage[i] = (uint8_t)(i * 37 + 11) | 1;
    queue(garbage, sizeof garbage);
    queue((const uint8_t *)"\x00\x05\x01\x00", 4);
    send_offsets(99, 33, 120, 60, 50);
    run_ms(200);
    check(vram_equals_render(99, 33, 120, 60), "after 600 garbage bytes the next OFFSETS is drawn");

    /* 5. CONFIGURE: HELLO with the chosen rate, samples at that rate. */
    tilt_configure c = {200, 1, 2};
    queue(w, tilt_encode_configure(&c, w));
    int hellos = got.hellos;
    run_ms(30);
    int before = got.samples;
    run_ms(500);
    check(got.hellos == hellos + 1 && got.hello.sample_rate_hz == 200 && got.hello.accel_fs == 1 && got.hello.gyro_fs == 2,
          "CONFIGURE answered with HELLO: %u Hz, AFS %u, FS %u", got.hello.sample_rate_hz, got.hello.accel_fs, got.hello.gyro_fs);
    check(got.samples - before >= 90 && got.samples - before <= 105, "about 200 samples/s after CONFIGURE (%d in 0.5 s)", got.samples - before);
    check(mpu.regs[0x1C] == (1 << 3) && mpu.regs[0x1B] == (2 << 3) && mpu.regs[0x19] == 4, "sensor registers set (ACCEL_CONFIG, GYRO_CONFIG, SMPLRT_DIV 4)");
    c.sample_rate_hz = 333;
    queue(w, tilt_encode_configure(&c, w));
    run_ms(30);
    check(got.hello.sample_rate_hz == 333 && mpu.regs[0x19] == 2, "333 Hz picks SMPLRT_DIV 2 (%u Hz reported)", got.hello.sample_rate_hz);

    c.sample_rate_hz = 5000;
    c.accel_fs = 7; /* out of range: the previous full scale stays */
    queue(w, tilt_encode_configure(&c, w));
    run_ms(30);
    check(got.hello.sample_rate_hz == 1000 && mpu.regs[0x19] == 0 && got.hello.accel_fs == 1,
          "5000 Hz is clamped to 1000 Hz (%u reported), AFS 7 ignored", got.hello.sample_rate_hz);
    c.sample_rate_hz = 100;
    c.accel_fs = 0;
    c.gyro_fs = 0;
    queue(w, tilt_encode_configure(&c, w));
    run_ms(30);

    /* 6. Host gone: the waiting screen comes back after 1 s. */
    run_ms(1300);
    check(memcmp(waiting, oled.vram, sizeof waiting) == 0, "waiting screen again 1 s after the last OFFSETS");
    check(got.errors == 0, "every frame from the board decoded (%d bad)", got.errors);
    check(got.first_seq_not_zero == 0, "the first SAMPLE after every HELLO has sequence 0 (%d HELLOs)", got.hellos);

    printf("%s: %d failure(s)\n", failures ? "fwcheck FAILED" : "fwcheck passed", failures);
    return failures ? 1 : 0;
}
