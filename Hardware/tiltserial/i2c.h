/* The I2C bus: our own interrupt-driven TWI master (not Wire).
 *
 * Why not Wire: its 32-byte buffer splits a 128-byte display page into five
 * transactions, and it copies every byte through its buffers in a long ISR
 * (about 12 us a byte at 16 MHz). Here a write goes straight from the
 * caller's buffer, whole, in an ISR of a few microseconds a byte, and runs in
 * the background (i2c_write_async) while the loop renders the next page.
 * Every transaction has a deadline: a stuck bus is reset (bus clear, TWI
 * re-enabled) instead of hanging the loop. */
#ifndef TILTSERIAL_I2C_H
#define TILTSERIAL_I2C_H

#include <stdint.h>

/** TWBR for an SCL of `hz` (prescaler 1): SCL = F_CPU / (16 + 2 TWBR), so
 *  0 from F_CPU / 16 up. A constant for a constant `hz`: no division runs. */
#define I2C_TWBR(hz) ((uint8_t)(F_CPU / (hz) > 16UL ? (F_CPU / (hz) - 16UL) / 2UL : 0UL))

void i2c_begin(void);
/** The display's transactions run at SCL = F_CPU / (16 + 2 `twbr`) from the
 *  next one on (the sensor's stay at I2C_CLOCK_HZ). */
void i2c_set_display_twbr(uint8_t twbr);
/** A display byte's time on the bus, ns: nine SCL periods at the display's
 *  clock and the stretch before the next byte (DISPLAY_BYTE_STRETCH_NS). */
uint32_t i2c_display_byte_ns(void);
/** True if a device acknowledges its address. */
bool i2c_probe(uint8_t address);
/** Writes one register; true on acknowledge. */
bool i2c_write_register(uint8_t address, uint8_t reg, uint8_t value);
/** Reads `count` registers from `reg` on (repeated start); true if all arrived. */
bool i2c_read_registers(uint8_t address, uint8_t reg, uint8_t *out, uint8_t count);
/** Writes `prefix` then `count` bytes of `data`, waiting for the end; true on acknowledge. */
bool i2c_write(uint8_t address, uint8_t prefix, const uint8_t *data, uint8_t count);
/** Starts writing `prefix` then `count` bytes of `data` (which must stay
 *  untouched until the bus is free) and returns at once. */
void i2c_write_async(uint8_t address, uint8_t prefix, const uint8_t *data, uint8_t count);
/** i2c_write_async, then a second write to the same address straight after
 *  it (the ISR chains them: STOP, START, no wait for the loop). */
void i2c_write_async_then(uint8_t address, uint8_t prefix, const uint8_t *data, uint8_t count,
                          uint8_t then_prefix, const uint8_t *then_data, uint8_t then_count);
/** While a write is on the bus with nothing chained to it: chains a second
 *  write to the same address after it (as i2c_write_async_then; `data` must
 *  stay untouched until the bus is free). False if the write has ended or
 *  something is chained already: start it the usual way. */
bool i2c_chain_async(uint8_t prefix, const uint8_t *data, uint8_t count);
/** True while a chained write waits for the one on the bus to end. */
bool i2c_chain_waiting(void);
/** Data bytes of the write on the bus not yet handed to the TWI. */
uint8_t i2c_bytes_left(void);
/** True while a transaction is on the bus (aborts it if it overran its deadline). */
bool i2c_busy(void);
/** True once when the last i2c_write_async has ended; `*ok`: acknowledged throughout. */
bool i2c_async_done(bool *ok);
/** While the loop has nothing else to do: feeds up to `max_bytes` more data
 *  bytes of the write in flight by polling instead of by interrupt (less
 *  stretch a byte), then hands the write back to the interrupt. True if the
 *  write has ended (the bus is free for the next). */
bool i2c_pump(uint8_t max_bytes);
/** Waits for the bus; true if the last transaction was acknowledged throughout. */
bool i2c_wait(void);

#endif
