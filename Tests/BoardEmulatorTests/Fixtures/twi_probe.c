// twi_probe: a tiny avr-libc test firmware for the AVR board emulator
// (no Arduino core). Built by the BoardEmulator tests with avr-gcc.
//
// UART0 at 115200 baud (U2X), prints lines:
//   "W<hh>"              WHO_AM_I of the MPU-6050 at 0x68
//   "D"                  after filling the SSD1306 at 0x3C with the test pattern
//   "S<28 hex digits>"   each 14-byte burst from 0x3B, once per data-ready
//   "E<hh>"              a TWI status error (then it starts over)
//   "R<hh>"              echo of each byte received on the UART
// Sensor setup: wake (PWR_MGMT_1 = 0), CONFIG = 1 (DLPF on: 1 kHz),
// SMPLRT_DIV = 9, so a sample every 10 ms.
// Display pattern: byte i of VRAM (page-major) = (i * 7 + 3) & 0xFF, written in
// horizontal addressing mode with 0x00 command and 0x40 data transactions.
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

static uint8_t twi_wait(void) {
    while (!(TWCR & _BV(TWINT))) {}
    return TWSR & 0xF8;
}

static uint8_t twi_error;

static void twi_expect(uint8_t status, uint8_t expected) {
    if (status != expected && !twi_error) twi_error = status;
}

static void twi_start(uint8_t address_byte, uint8_t expect_ack) {
    TWCR = _BV(TWINT) | _BV(TWSTA) | _BV(TWEN);
    uint8_t s = twi_wait();
    if (s != 0x08 && s != 0x10) twi_expect(s, 0x08);
    TWDR = address_byte;
    TWCR = _BV(TWINT) | _BV(TWEN);
    twi_expect(twi_wait(), expect_ack);
}

static void twi_write(uint8_t data) {
    TWDR = data;
    TWCR = _BV(TWINT) | _BV(TWEN);
    twi_expect(twi_wait(), 0x28);
}

static uint8_t twi_read(uint8_t ack) {
    TWCR = _BV(TWINT) | _BV(TWEN) | (ack ? _BV(TWEA) : 0);
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
    static const uint8_t setup[] = {
        0xAE, 0x20, 0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07, 0x81, 0x42, 0xAF,
    };
    oled_commands(setup, sizeof setup);
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
    for (;;) {
        twi_error = 0;
        uint8_t who = 0;
        mpu_read(0x75, &who, 1);
        uart_put('W'); uart_hex(who); uart_put('\n');
        oled_pattern();
        uart_put('D'); uart_put('\n');
        mpu_write(0x6B, 0x00);
        mpu_write(0x1A, 0x01);
        mpu_write(0x19, 9);
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
        uart_put('E'); uart_hex(twi_error); uart_put('\n');
    }
}
