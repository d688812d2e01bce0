#include "i2c.h"

#include <Arduino.h>
#include <Wire.h>

#include "config.h"

/* A reset in the middle of a read (the watchdog, the reset button) can leave a
 * slave driving SDA low, waiting for clocks; up to nine SCL pulses let it finish
 * its byte and release the bus (I2C spec UM10204, 3.1.16 "bus clear"). */
static void clear_bus(void) {
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
