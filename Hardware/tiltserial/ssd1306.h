/* The SSD1306 128x64 OLED over I2C, written a page at a time: in
 * horizontal addressing mode, so a frame's pages follow each other without a
 * command between them (the SH1106 would need page mode for every page).
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

/** True once ssd1306_begin set horizontal addressing: the cursor runs on
 *  from page to page, so only a frame's first page needs its command. */
extern bool ssd1306_horizontal;

/** Finds the display (0x3C, then 0x3D) and sends it the init sequence
 *  (charge pump, display on, horizontal addressing over the whole glass);
 *  false if none answered. */
bool ssd1306_begin(void);
/** Starts pointing the write cursor at column 0 of `page` (0..7), then
 *  writing the page's first `count` data bytes (none if 0) right after. In
 *  horizontal mode the cursor then runs on to the next pages. */
void ssd1306_write_page_async(uint8_t page, const uint8_t *data, uint8_t count);
/** Starts writing `count` data bytes at the cursor, which advances. */
void ssd1306_write_data_async(const uint8_t *data, uint8_t count);

#endif
