#include "ssd1306.h"

#include "i2c.h"
#include <avr/pgmspace.h>

#include "config.h"

static const uint8_t init_commands[] PROGMEM = {
    0xAE,       /* display off */
    0xD5, 0x80, /* clock divide / oscillator */
    0xA8, 0x3F, /* multiplex ratio: 64 rows */
    0xD3, 0x00, /* display offset 0 (start line stays at its reset value 0) */
    0x8D, 0x14, /* charge pump on */
    0x20, 0x02, /* page addressing mode */
    0xA1,       /* column 127 mapped to SEG0: the usual module orientation */
    0xC8,       /* COM scan remapped (top row at the header pins' side) */
    0xDA, 0x12, /* COM pins: alternative configuration, 128x64 */
    0x81, 0xCF, /* contrast */
    0xD9, 0xF1, /* pre-charge period */
    0xDB, 0x40, /* VCOMH deselect level */
    0xA4,       /* show RAM content */
    0xA6,       /* normal (not inverted) */
    0x2E,       /* scrolling off */
    0xAF,       /* display on */
};

/* The SSD1306's horizontal addressing: the cursor runs along a page and on
 * to the next, so a frame needs one window command instead of eight page
 * commands (48 bus bytes and seven transactions less a frame). */
static const uint8_t horizontal_commands[] PROGMEM = {
    0x20, 0x00,       /* horizontal addressing mode */
    0x21, 0x00, 0x7F, /* columns 0..127 */
    0x22, 0x00, 0x07, /* pages 0..7 */
};

uint8_t ssd1306_address;
bool ssd1306_horizontal;

static bool write_commands_P(const uint8_t *commands_P, uint8_t count) {
    uint8_t commands[sizeof init_commands];
    memcpy_P(commands, commands_P, count);
    return i2c_write(ssd1306_address, 0x00, commands, count);
}

bool ssd1306_begin(void) {
    if (i2c_probe(DISPLAY_ADDRESS_LOW)) ssd1306_address = DISPLAY_ADDRESS_LOW;
    else if (i2c_probe(DISPLAY_ADDRESS_HIGH)) ssd1306_address = DISPLAY_ADDRESS_HIGH;
    else return false;
    ssd1306_horizontal = false;
    if (!write_commands_P(init_commands, sizeof init_commands)) return false;
    ssd1306_horizontal = write_commands_P(horizontal_commands, sizeof horizontal_commands);
    return ssd1306_horizontal;
}

/* Sent from here while the loop goes on: kept until the next command. */
static uint8_t page_command[6];

void ssd1306_write_page_async(uint8_t page, const uint8_t *data, uint8_t count) {
    uint8_t length;
    if (ssd1306_horizontal) {
        page_command[0] = 0x21; /* columns 0..127: the column cursor to 0 */
        page_command[1] = 0x00;
        page_command[2] = 0x7F;
        page_command[3] = 0x22; /* pages `page`..7: the page cursor to `page` */
        page_command[4] = (uint8_t)(page & 7);
        page_command[5] = 0x07;
        length = 6;
    } else {
        page_command[0] = (uint8_t)(0xB0 | (page & 7)); /* page start address */
        page_command[1] = 0x00;                         /* column low nibble 0 */
        page_command[2] = 0x10;                         /* column high nibble 0 */
        length = 3;
    }
    if (count == 0) i2c_write_async(ssd1306_address, 0x00, page_command, length);
    else i2c_write_async_then(ssd1306_address, 0x00, page_command, length, 0x40, data, count);
}

void ssd1306_write_data_async(const uint8_t *data, uint8_t count) {
    i2c_write_async(ssd1306_address, 0x40, data, count);
}
