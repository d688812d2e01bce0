/* Register-level I2C helpers over the Wire library. */
#ifndef TILTSERIAL_I2C_H
#define TILTSERIAL_I2C_H

#include <stdint.h>

void i2c_begin(void);
/** True if a device acknowledges its address. */
bool i2c_probe(uint8_t address);
/** Writes one register; true on acknowledge. */
bool i2c_write_register(uint8_t address, uint8_t reg, uint8_t value);
/** Reads `count` (<= 32) registers from `reg` on; true if all arrived. */
bool i2c_read_registers(uint8_t address, uint8_t reg, uint8_t *out, uint8_t count);

#endif
