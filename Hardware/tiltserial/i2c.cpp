#include "i2c.h"

#include <Arduino.h>
#include <avr/interrupt.h>
#include <util/twi.h>

#include "config.h"

/* The transaction on the bus, shared with the ISR. */
static volatile bool busy;
static volatile bool failed;
static uint8_t sla;              /* SLA+W, then SLA+R after the repeated start */
static volatile bool has_prefix;
static uint8_t prefix_byte;
static const uint8_t *tx;
static uint8_t tx_left;
static uint8_t *volatile rx;
static volatile uint8_t rx_left;
static uint32_t started_us, allowed_us;
/* A second write chained to the first (STOP then START from the ISR, no gap). */
static volatile bool chained;
static uint32_t allowed_extra_us;
static uint8_t chained_prefix;
static const uint8_t *chained_data;
static uint8_t chained_count;
/* The background write's result, until the caller collects it. */
static enum { ASYNC_NONE, ASYNC_RUNNING, ASYNC_DONE } async_state;
static bool async_ok;

static void settle_async(void) {
    if (async_state == ASYNC_RUNNING && !busy) {
        async_ok = !failed;
        async_state = ASYNC_DONE;
    }
}

/* A transaction's deadline: I2C_TIMEOUT_US plus twice each byte's nine
 * clocks at its clock: the sensor's (ALLOWED_US_PER_BYTE), or the display's
 * when it runs slower (display_allowed_us_per_byte; 182 us at 100 kHz). */
static const uint8_t ALLOWED_US_PER_BYTE = (uint8_t)(2UL * 9UL * 1000000UL / I2C_CLOCK_HZ + 1UL);

/* `bytes` at `per_byte` us each: one 8-bit multiply (the chaining below runs
 * with interrupts off, and a 32-bit one cost the glass at 1 kHz 1.5 % of
 * its frames). */
static inline uint16_t allowance_us(uint8_t bytes, uint8_t per_byte) { return (uint16_t)(bytes * per_byte); }

/* TWBR of the display's transactions, and the time they are allowed a byte. */
static uint8_t display_twbr;
static uint8_t display_allowed_us_per_byte;

void i2c_set_display_twbr(uint8_t twbr) {
    display_twbr = twbr;
    /* In 16 bits: 18 (16 + 2 TWBR) < 9 500. */
    uint16_t allowed = (uint16_t)(18u * (16u + 2u * twbr) / (uint16_t)(F_CPU / 1000000UL) + 1u);
    display_allowed_us_per_byte = (uint8_t)(allowed > ALLOWED_US_PER_BYTE ? allowed : ALLOWED_US_PER_BYTE);
}

uint32_t i2c_display_byte_ns(void) {
    return 9UL * (16UL + 2UL * display_twbr) * 1000UL / (F_CPU / 1000000UL) + DISPLAY_BYTE_STRETCH_NS;
}

static const uint8_t GO = _BV(TWINT) | _BV(TWEN) | _BV(TWIE);

static void finish(bool ok) {
    TWCR = _BV(TWINT) | _BV(TWEN) | _BV(TWSTO);
    failed = !ok;
    busy = false;
}

ISR(TWI_vect) {
    /* The bus is stretched (SCL held low) from TWINT until TWCR is written, so
     * the common case, the next data byte, writes it first and counts after. */
    uint8_t status = TW_STATUS;
    if (status == TW_MT_DATA_ACK && !has_prefix && tx_left) {
        const uint8_t *p = tx;
        TWDR = *p;
        TWCR = GO;
        tx = p + 1;
        tx_left--;
        return;
    }
    switch (status) {
    case TW_START:
    case TW_REP_START:
        TWDR = sla;
        TWCR = GO;
        break;
    case TW_MT_SLA_ACK:
    case TW_MT_DATA_ACK:
        if (has_prefix) {
            has_prefix = false;
            TWDR = prefix_byte;
            TWCR = GO;
        } else if (tx_left) {
            TWDR = *tx;
            TWCR = GO;
            tx++;
            tx_left--;
        } else if (rx_left) {
            sla |= TW_READ;
            TWCR = GO | _BV(TWSTA); /* repeated start: the register pointer stays set */
        } else if (chained) {
            chained = false;
            has_prefix = true;
            prefix_byte = chained_prefix;
            tx = chained_data;
            tx_left = chained_count;
            TWCR = GO | _BV(TWSTO) | _BV(TWSTA); /* STOP, then START the next write */
        } else {
            finish(true);
        }
        break;
    case TW_MR_SLA_ACK:
        TWCR = rx_left > 1 ? (GO | _BV(TWEA)) : GO;
        break;
    case TW_MR_DATA_ACK:
    case TW_MR_DATA_NACK: {
        uint8_t *p = rx;
        *p = TWDR;
        rx = p + 1;
        rx_left = rx_left - 1;
        if (rx_left == 0 || status == TW_MR_DATA_NACK) finish(rx_left == 0);
        else TWCR = rx_left > 1 ? (GO | _BV(TWEA)) : GO;
        break;
    }
    default: /* a NACK, lost arbitration, a bus error */
        chained = false;
        finish(false);
        break;
    }
}

/* Polled sending (i2c_pump): the interrupt costs about 3 us of stretched SCL
 * a byte (entry, saving registers, the dispatch), an eighth of a 400 kHz
 * byte; a loop polling TWINT answers within a few cycles. Only the common
 * case is fed here; anything else (the last byte's STOP, a chained write, a
 * NACK) goes back to the ISR at once. TWIE is off while pumping: the TWI
 * interrupt is a level (TWINT and TWIE), so it cannot fire behind our back,
 * and every other interrupt (the UART's) keeps running. */
bool i2c_pump(uint8_t max_bytes) {
    cli();
    bool ours = busy && !has_prefix && rx_left == 0 && tx_left != 0 && !(TWCR & _BV(TWINT));
    if (ours) TWCR = _BV(TWEN); /* TWIE off; TWINT written 0 is left alone: the byte goes on */
    sei();
    if (!ours) return false;
    const uint8_t *p = tx;
    uint8_t left = tx_left < max_bytes ? tx_left : max_bytes;
    uint8_t next = *p;
    while (left) {
        /* The next byte goes out first; the counting is done while it shifts.
         * A byte takes about 360 cycles at 400 kHz: 65536 spins are tens of
         * milliseconds, a stuck bus for the ISR's deadline to handle. */
        uint16_t spins = 0;
        while (!(TWCR & _BV(TWINT))) {
            if (--spins == 0) goto out;
        }
        if (TW_STATUS != TW_MT_DATA_ACK) goto out;
        TWDR = next;
        TWCR = _BV(TWINT) | _BV(TWEN);
        p++;
        if (--left) next = *p; /* never past the caller's data */
    }
    /* The write's last byte is out: wait for it, so the ISR's STOP (or its
     * chained write) follows at once and the caller can start the next. */
    if (tx_left == (uint8_t)(p - tx)) {
        uint16_t spins = 0;
        while (!(TWCR & _BV(TWINT)) && --spins != 0) {
        }
    }
out:
    tx_left -= (uint8_t)(p - tx);
    tx = p;
    TWCR = _BV(TWEN) | _BV(TWIE); /* TWINT left alone: if it is set, the ISR takes the next step now */
    return !busy;
}

/* A reset in the middle of a read (the watchdog, the reset button) can leave a
 * slave driving SDA low, waiting for clocks; up to nine SCL pulses let it finish
 * its byte and release the bus (I2C spec UM10204, 3.1.16 "bus clear"). */
static void clear_bus(void) {
    TWCR = 0;
    pinMode(SDA, INPUT_PULLUP);
    pinMode(SCL, INPUT_PULLUP);
    delayMicroseconds(10);
    for (uint8_t i = 0; i < 9 && digitalRead(SDA) == LOW; i++) {
        pinMode(SCL, OUTPUT);
        digitalWrite(SCL, LOW);
        delayMicroseconds(5);
        pinMode(SCL, INPUT_PULLUP);
        delayMicroseconds(5);
    }
}

void i2c_begin(void) {
    clear_bus();
    TWSR = 0; /* prescaler 1 */
    TWBR = I2C_TWBR(I2C_CLOCK_HZ);
    i2c_set_display_twbr(I2C_TWBR(I2C_CLOCK_HZ));
    TWCR = _BV(TWEN);
    busy = false;
}

/* A stuck transaction: start over with a free bus. */
static void abort_transaction(void) {
    chained = false;
    clear_bus();
    TWCR = _BV(TWEN);
    failed = true;
    busy = false;
}

bool i2c_busy(void) {
    /* The deadline is checked every 8th call: the loop asks many times a
     * transfer, and micros() was a tenth of the CPU at 1 kHz sampling. */
    static uint8_t calls;
    if (busy && (++calls & 7u) == 0 && micros() - started_us > allowed_us) abort_transaction();
    settle_async();
    return busy;
}

bool i2c_async_done(bool *ok) {
    i2c_busy();
    if (async_state != ASYNC_DONE) return false;
    *ok = async_ok;
    async_state = ASYNC_NONE;
    return true;
}

bool i2c_wait(void) {
    while (i2c_busy()) {
    }
    return !failed;
}

static void start(uint8_t address, bool write_prefix, uint8_t prefix, const uint8_t *data, uint8_t count,
                  uint8_t *in, uint8_t in_count) {
    i2c_wait(); /* settles a background write's result before this one's */
    /* The STOP of the last transaction finishes in one SCL period. */
    for (uint8_t i = 0; i < 100 && (TWCR & _BV(TWSTO)); i++) delayMicroseconds(1);
    /* The display may run faster than the sensor's rated 400 kHz. */
    bool display = address == DISPLAY_ADDRESS_LOW || address == DISPLAY_ADDRESS_HIGH;
    TWBR = display ? display_twbr : I2C_TWBR(I2C_CLOCK_HZ);
    sla = (uint8_t)(address << 1);
    has_prefix = write_prefix;
    prefix_byte = prefix;
    tx = data;
    tx_left = count;
    rx = in;
    rx_left = in_count;
    failed = false;
    busy = true;
    started_us = micros();
    uint8_t per_byte = display ? display_allowed_us_per_byte : ALLOWED_US_PER_BYTE;
    allowed_us = I2C_TIMEOUT_US + allowance_us(count, per_byte) + allowance_us(in_count, per_byte) + allowed_extra_us;
    allowed_extra_us = 0;
    TWCR = GO | _BV(TWSTA);
}

bool i2c_probe(uint8_t address) {
    start(address, false, 0, 0, 0, 0, 0);
    return i2c_wait();
}

bool i2c_write(uint8_t address, uint8_t prefix, const uint8_t *data, uint8_t count) {
    start(address, true, prefix, data, count, 0, 0);
    return i2c_wait();
}

void i2c_write_async(uint8_t address, uint8_t prefix, const uint8_t *data, uint8_t count) {
    start(address, true, prefix, data, count, 0, 0);
    async_state = ASYNC_RUNNING;
}

void i2c_write_async_then(uint8_t address, uint8_t prefix, const uint8_t *data, uint8_t count,
                          uint8_t then_prefix, const uint8_t *then_data, uint8_t then_count) {
    i2c_wait();
    chained_prefix = then_prefix;
    chained_data = then_data;
    chained_count = then_count;
    chained = true;
    allowed_extra_us = allowance_us(then_count, display_allowed_us_per_byte); /* the display's pages */
    i2c_write_async(address, prefix, data, count);
}

bool i2c_chain_async(uint8_t prefix, const uint8_t *data, uint8_t count) {
    bool ok = false;
    uint8_t sreg = SREG;
    cli(); /* the interrupt decides at the write's last byte whether to chain */
    if (busy && !chained && rx_left == 0 && async_state == ASYNC_RUNNING) {
        chained_prefix = prefix;
        chained_data = data;
        chained_count = count;
        allowed_us += allowance_us(count, display_allowed_us_per_byte); /* the display's pages */
        chained = true;
        ok = true;
    }
    SREG = sreg;
    return ok;
}

uint8_t i2c_bytes_left(void) { return busy ? tx_left : 0; }

bool i2c_chain_waiting(void) { return chained; }

bool i2c_write_register(uint8_t address, uint8_t reg, uint8_t value) {
    return i2c_write(address, reg, &value, 1);
}

bool i2c_read_registers(uint8_t address, uint8_t reg, uint8_t *out, uint8_t count) {
    if (count == 0) return true;
    start(address, true, reg, 0, 0, out, count);
    return i2c_wait();
}
