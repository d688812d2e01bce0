#include "i2c.h"

#include <Wire.h>

#include "config.h"

void i2c_begin(void) {
    Wire.begin();
    Wire.setClock(I2C_CLOCK_HZ);
    Wire.setWireTimeout(I2C_TIMEOUT_US, true);
}

bool i2c_probe(uint8_t address) {
    Wire.beginTransmission(address);
    return Wire.endTransmission() == 0;
}

bool i2c_write_register(uint8_t address, uint8_t reg, uint8_t value) {
    Wire.beginTransmission(address);
    Wire.write(reg);
    Wire.write(value);
    return Wire.endTransmission() == 0;
}

bool i2c_read_registers(uint8_t address, uint8_t reg, uint8_t *out, uint8_t count) {
    /* Set the register pointer, then read with a repeated start (datasheet 9.3). */
    Wire.beginTransmission(address);
    Wire.write(reg);
    if (Wire.endTransmission(false) != 0) return false;
    if (Wire.requestFrom(address, count) != count) return false;
    for (uint8_t i = 0; i < count; i++) out[i] = (uint8_t)Wire.read();
    return true;
}
