/* Build-time settings of the tiltserial sketch. */
#ifndef TILTSERIAL_CONFIG_H
#define TILTSERIAL_CONFIG_H

#define FIRMWARE_MAJOR 1
#define FIRMWARE_MINOR 0
#define FIRMWARE_PATCH 0

/* Serial line (docs/protocol.md): 8N1, no flow control. */
#define SERIAL_BAUD 115200UL

/* I2C: 400 kHz fast mode; both parts support it with the usual 4.7k-10k
 * pull-ups. I2C_CLOCK_HZ is the display's clock (`make I2C_CLOCK_HZ=800000`:
 * many SSD1306 modules take 800 kHz-1 MHz, docs/hardware.md); the MPU-6050 is
 * rated for 400 kHz and keeps it (TWBR is switched between transactions). */
#ifndef I2C_CLOCK_HZ
#define I2C_CLOCK_HZ 400000UL
#endif
#define I2C_SENSOR_CLOCK_HZ (I2C_CLOCK_HZ < 400000UL ? I2C_CLOCK_HZ : 400000UL)
/* One display byte on the bus, ns: nine SCL periods (16 + 2 TWBR cycles
 * each) and the time SCL is stretched before the next byte: about 1 us when
 * the loop feeds the bytes (i2c_pump, most of them), 3 us from the
 * interrupt (while the loop renders). */
#define DISPLAY_BYTE_NS (9UL * (16UL + 2UL * ((F_CPU / I2C_CLOCK_HZ - 16UL) / 2UL)) * 1000UL / (F_CPU / 1000000UL) + 800UL)
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
