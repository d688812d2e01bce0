/* Build-time settings of the tiltserial sketch. */
#ifndef TILTSERIAL_CONFIG_H
#define TILTSERIAL_CONFIG_H

#define FIRMWARE_MAJOR 1
#define FIRMWARE_MINOR 0
#define FIRMWARE_PATCH 0

/* Serial line (docs/protocol.md): 8N1, no flow control, at 115200 baud, or
 * 38400 on the 8 MHz Pro Mini (src/core/tilt_baud.h says why). */
#include "src/core/tilt_baud.h"
#define SERIAL_BAUD TILT_SERIAL_BAUD

/* I2C: 400 kHz fast mode; both parts support it with the usual 4.7k-10k
 * pull-ups. The display's own transactions may run at 800 kHz or 1 MHz, a
 * setting stored in the EEPROM (`tiltserial setup --display-clock`: many
 * SSD1306 modules take it, docs/hardware.md); the MPU-6050 is rated for
 * 400 kHz and keeps it (TWBR is switched between transactions). */
#define I2C_CLOCK_HZ 400000UL
/* The time SCL is stretched before a display byte, ns, beyond its nine SCL
 * periods: about 1 us when the loop feeds the bytes (i2c_pump, most of
 * them), 3 us from the interrupt (while the loop renders). */
#define DISPLAY_BYTE_STRETCH_NS 800u
/* Display bytes the loop feeds by polling per pass (i2c_pump) before it looks
 * at the serial line and the sensor again: 0.7 ms at 400 kHz. */
#define PUMP_BYTES 32
/* A stuck bus (missing pull-ups, a part holding SDA) aborts a transfer after this. */
#define I2C_TIMEOUT_US 3000UL
/* The sensor is looked for at 0x68, then 0x69 (src/core/tilt_sensor.h); the
 * display at 0x3C, then 0x3D (SA0 high: Adafruit's 128x64 breakout; module
 * labels often give the 8-bit forms 0x78 and 0x7A). */
#define DISPLAY_ADDRESS_LOW 0x3C
#define DISPLAY_ADDRESS_HIGH 0x3D

/* Sensor defaults until the host sends CONFIGURE. */
#define DEFAULT_SAMPLE_RATE_HZ 100
#define DEFAULT_ACCEL_FS 0 /* AFS_SEL 0: +-2 g */
#define DEFAULT_GYRO_FS 0  /* FS_SEL 0: +-250 deg/s */

/* No OFFSETS for TILT_HOST_TIMEOUT_MS (src/core/tilt_board.h, 1 s): the waiting screen. */
/* How often to look for a sensor or display that did not answer. */
#define PROBE_INTERVAL_MS 1000UL

#endif
