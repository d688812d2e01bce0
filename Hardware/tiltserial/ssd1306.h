/* The 128x64 OLED over I2C, written a page at a time: an SSD1306 (also on a
 * 128x32 module) in horizontal addressing mode, so a frame's pages follow
 * each other without a command between them; or the SH1106 of 1.3" modules,
 * which has page addressing only, so every page gets its page command, from
 * RAM column 2 (its glass shows columns 2..129 of 132). ssd1306_begin tells
 * the SSD1306 and the SH1106 apart once: an SH1106 reads its RAM back over
 * I2C, an SSD1306 answers reads with its status byte.
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

/** The display in use once begun: TILT_DISPLAY_SSD1306_128X64,
 *  TILT_DISPLAY_SH1106_128X64 or TILT_DISPLAY_SSD1306_128X32
 *  (src/core/tilt_frames.h, PARTS display_kind). */
extern uint8_t ssd1306_kind;

/** True once begun in horizontal addressing (an SSD1306): the cursor runs on
 *  from page to page, so only a frame's first page needs its command. False
 *  on the SH1106 (page addressing only). */
extern bool ssd1306_horizontal;

/** Finds the display (0x3C, then 0x3D), detects its controller and begins it
 *  as that (ssd1306_begin_as); false if none answered. */
bool ssd1306_begin(void);
/** Begins the display as `kind` without detecting it (a stored choice; the
 *  128x32 module cannot be detected; an unknown kind is taken as the SSD1306
 *  128x64): finds it (0x3C, then 0x3D), sends that kind's init sequence
 *  (display on; horizontal addressing on an SSD1306); false if none
 *  answered. A 128x32 module shows the 128x64 picture squeezed 2:1
 *  (docs/display.md). */
bool ssd1306_begin_as(uint8_t kind);
/** Starts pointing the write cursor at glass column `column` (0..127) of
 *  `page` (0..7), then writing `count` data bytes (none if 0) right after. In
 *  horizontal mode the cursor then runs on to `column` of the next pages. */
void ssd1306_write_page_async(uint8_t page, uint8_t column, const uint8_t *data, uint8_t count);
/** Starts writing `count` data bytes at the cursor, which advances. */
void ssd1306_write_data_async(const uint8_t *data, uint8_t count);
/** The same, chained by the interrupt to the write on the bus (no wait for
 *  the loop between them); false if that has ended (i2c_chain_async). */
bool ssd1306_chain_data_async(const uint8_t *data, uint8_t count);

#endif
