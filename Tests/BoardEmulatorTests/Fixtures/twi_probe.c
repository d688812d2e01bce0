// twi_probe: a tiny avr-libc test firmware for the AVR board emulator
// (no Arduino core). Built by the BoardEmulator tests with avr-gcc.
//
// UART0 at 115200 baud (U2X), prints lines:
//   "W<hh>"              WHO_AM_I of the MPU-6050 at 0x68
//   "D"                  after filling the SSD1306 at 0x3C with the test pattern
//   "S<28 hex digits>"   each 14-byte burst from 0x3B, once per data-ready
//   "E<ss><ee><nn>"      a TWI error: status, expected status, step (then it starts over)
//   "R<hh>"              echo of each byte received on the UART
// Sensor setup: wake (PWR_MGMT_1 = 0), CONFIG = 0 (no low-pass filter, so the
// readings are the motion source's own: 8 kHz gyro rate), SMPLRT_DIV = 79, so
// a sample every 10 ms.
// Display pattern: byte i of VRAM (page-major) = (i * 7 + 3) & 0xFF, written in
// horizontal addressing mode with 0x00 command and 0x40 data transactions;
// also 0xA1 after a start-line command, and 0xA7, 0xC8 sent with Co=1 control
// bytes (0x80), which simavr's own ssd1306_virt would abort on.
#include <avr/interrupt.h>
#include <avr/io.h>
#include <stdint.h>

#define MPU 0x68
#define OLED 0x3C

static void uart_init(void) {
    UCSR0A = _BV(U2X0);
    UBRR0 = 16;  // 16 MHz / (8 * (16 + 1)) = 117647 baud, -> 115200
    UCSR0B = _BV(TXEN0) | _BV(RXEN0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
}

static void uart_put(uint8_t c) {
    while (!(UCSR0A & _BV(UDRE0))) {}
    UDR0 = c;
}

static void uart_hex(uint8_t v) {
    static const char digits[] = "0123456789abcdef";
    uart_put(digits[v >> 4]);
    uart_put(digits[v & 15]);
}

static void uart_poll_echo(void) {
    while (UCSR0A & _BV(RXC0)) {
        uint8_t c = UDR0;
        uart_put('R');
        uart_hex(c);
        uart_put('\n');
    }
}

// Interrupt-driven like Arduino's Wire (a polling driver is
// sketches/polling_twi.ino).
static volatile uint8_t twi_flag, twi_status;

ISR(TWI_vect) {
    twi_status = TWSR & 0xF8;
    twi_flag = 1;
    TWCR = _BV(TWEN);  // TWIE off until the next operation; TWINT untouched
}

static void twi_go(uint8_t bits) {
    twi_flag = 0;
    TWCR = _BV(TWINT) | _BV(TWEN) | _BV(TWIE) | bits;
}

static uint8_t twi_wait(void) {
    while (!twi_flag) {}
    return twi_status;
}

static uint8_t twi_error, twi_expected, twi_step;

static void twi_expect(uint8_t status, uint8_t expected) {
    if (status != expected && !twi_error) {
        twi_error = status;
        twi_expected = expected;
    }
}

static void twi_start(uint8_t address_byte, uint8_t expect_ack) {
    if (!twi_error) twi_step++;
    twi_go(_BV(TWSTA));
    uint8_t s = twi_wait();
    if (s != 0x08 && s != 0x10) twi_expect(s, 0x08);
    TWDR = address_byte;
    twi_go(0);
    twi_expect(twi_wait(), expect_ack);
}

static void twi_write(uint8_t data) {
    TWDR = data;
    twi_go(0);
    twi_expect(twi_wait(), 0x28);
}

static uint8_t twi_read(uint8_t ack) {
    twi_go(ack ? _BV(TWEA) : 0);
    twi_expect(twi_wait(), ack ? 0x50 : 0x58);
    return TWDR;
}

static void twi_stop(void) {
    TWCR = _BV(TWINT) | _BV(TWSTO) | _BV(TWEN);
    while (TWCR & _BV(TWSTO)) {}
}

static void mpu_write(uint8_t reg, uint8_t value) {
    twi_start(MPU << 1, 0x18);
    twi_write(reg);
    twi_write(value);
    twi_stop();
}

static void mpu_read(uint8_t reg, uint8_t *out, uint8_t n) {
    twi_start(MPU << 1, 0x18);
    twi_write(reg);
    twi_start((MPU << 1) | 1, 0x40);
    for (uint8_t i = 0; i < n; i++) out[i] = twi_read(i + 1 < n);
    twi_stop();
}

static void oled_commands(const uint8_t *bytes, uint8_t n) {
    twi_start(OLED << 1, 0x18);
    twi_write(0x00);
    for (uint8_t i = 0; i < n; i++) twi_write(bytes[i]);
    twi_stop();
}

static void oled_pattern(void) {
    // 0x40 (start line 0) takes no parameter: 0xA1 after it must still count.
    static const uint8_t setup[] = {
        0xAE, 0x40, 0xA1, 0x20, 0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07, 0x81, 0x42, 0xAF,
    };
    oled_commands(setup, sizeof setup);
    // Control bytes with the Co bit: one command each (0xA7 invert, 0xC8 COM scan reversed).
    twi_start(OLED << 1, 0x18);
    twi_write(0x80); twi_write(0xA7);
    twi_write(0x80); twi_write(0xC8);
    twi_stop();
    uint16_t i = 0;
    while (i < 1024) {
        twi_start(OLED << 1, 0x18);
        twi_write(0x40);
        for (uint8_t k = 0; k < 16; k++, i++) twi_write((uint8_t)(i * 7 + 3));
        twi_stop();
    }
}

int main(void) {
    uart_init();
    TWSR = 0;
    TWBR = 12;  // 400 kHz
    sei();
    for (;;) {
        twi_error = 0;
        twi_step = 0;
        uint8_t who = 0;
        mpu_read(0x75, &who, 1);
        uart_put('W'); uart_hex(who); uart_put('\n');
        oled_pattern();
        uart_put('D'); uart_put('\n');
        mpu_write(0x6B, 0x00);
        mpu_write(0x1A, 0x00);
        mpu_write(0x19, 79);
        while (!twi_error) {
            uint8_t status = 0;
            mpu_read(0x3A, &status, 1);
            uart_poll_echo();
            if (!(status & 1)) continue;
            uint8_t burst[14];
            mpu_read(0x3B, burst, 14);
            uart_put('S');
            for (uint8_t k = 0; k < 14; k++) uart_hex(burst[k]);
            uart_put('\n');
        }
        uart_put('E'); uart_hex(twi_error); uart_hex(twi_expected); uart_hex(twi_step); uart_put('\n');
    }
}
