/* The SSD1306 128x64 OLED over I2C, written a page at a time.
 *
 * Every transfer starts with a plain control byte: 0x00 = commands follow,
 * 0x40 = display data follows (never the 0x80 "one command" form, and never the
 * 0x40 "start line" command, which simavr's ssd1306_virt mishandles). Data goes
 * in chunks of at most SSD1306_CHUNK bytes so control byte + data fit Wire's
 * 32-byte buffer. */
#ifndef TILTSERIAL_SSD1306_H
#define TILTSERIAL_SSD1306_H

#include <stdint.h>

#define SSD1306_CHUNK 31

/** Sends the init sequence (page addressing mode, charge pump, display on). */
bool ssd1306_begin(void);
/** Points the write cursor at column 0 of `page` (0..7). */
bool ssd1306_set_page(uint8_t page);
/** Writes `count` (<= SSD1306_CHUNK) data bytes at the cursor, which advances. */
bool ssd1306_write_data(const uint8_t *data, uint8_t count);

#endif
