/* The SSD1306 128x64 OLED over I2C, written a page at a time in page
 * addressing mode (the SH1106 supports only that).
 *
 * Every transfer starts with a plain control byte: 0x00 = commands follow,
 * 0x40 = display data follows (never the 0x80 "one command" form, and never the
 * 0x40 "start line" command, which simavr's ssd1306_virt mishandles). The
 * writes run in the background (i2c.h): the caller checks i2c_busy() before
 * the next one and keeps the data untouched until then. */
#ifndef TILTSERIAL_SSD1306_H
#define TILTSERIAL_SSD1306_H

#include <stdint.h>

/** The display's address once ssd1306_begin found it (0x3C or 0x3D), 0 before. */
extern uint8_t ssd1306_address;

/** Finds the display (0x3C, then 0x3D) and sends it the init sequence (page
 *  addressing mode, charge pump, display on); false if none answered. */
bool ssd1306_begin(void);
/** Starts pointing the write cursor at column 0 of `page` (0..7), then
 *  writing the page's first `count` data bytes (none if 0) right after. */
void ssd1306_write_page_async(uint8_t page, const uint8_t *data, uint8_t count);
/** Starts writing `count` data bytes at the cursor, which advances. */
void ssd1306_write_data_async(const uint8_t *data, uint8_t count);

#endif
