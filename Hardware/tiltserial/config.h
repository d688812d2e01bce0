/* Build-time settings of the tiltserial sketch. */
#ifndef TILTSERIAL_CONFIG_H
#define TILTSERIAL_CONFIG_H

#define FIRMWARE_MAJOR 1
#define FIRMWARE_MINOR 0
#define FIRMWARE_PATCH 0

/* Serial line (docs/protocol.md): 8N1, no flow control. */
#define SERIAL_BAUD 115200UL

/* I2C: 400 kHz fast mode; both parts support it with the usual 4.7k-10k pull-ups. */
#define I2C_CLOCK_HZ 400000UL
/* One byte for the display: its nine clocks on the bus, Wire's interrupt
 * (about 12 us at 16 MHz) and rendering it (up to about 12 us), as measured in
 * simavr (docs/perf/avr.md). The display's share of the loop is sized with it. */
#define DISPLAY_BYTE_US (9UL * 1000000UL / I2C_CLOCK_HZ + 24UL)
/* A stuck bus (missing pull-ups, a part holding SDA) aborts a transfer after this. */
#define I2C_TIMEOUT_US 3000UL
/* The sensor is looked for at 0x68, then 0x69 (src/core/tilt_sensor.h). */
#define SSD1306_ADDRESS 0x3C

/* Sensor defaults until the host sends CONFIGURE. */
#define DEFAULT_SAMPLE_RATE_HZ 100
#define DEFAULT_ACCEL_FS 0 /* AFS_SEL 0: +-2 g */
#define DEFAULT_GYRO_FS 0  /* FS_SEL 0: +-250 deg/s */

/* No OFFSETS for TILT_HOST_TIMEOUT_MS (src/core/tilt_board.h, 1 s): the waiting screen. */
/* How often to look for a sensor or display that did not answer. */
#define PROBE_INTERVAL_MS 1000UL

#endif
