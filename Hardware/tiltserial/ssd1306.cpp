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

uint8_t ssd1306_address;

bool ssd1306_begin(void) {
    if (i2c_probe(DISPLAY_ADDRESS_LOW)) ssd1306_address = DISPLAY_ADDRESS_LOW;
    else if (i2c_probe(DISPLAY_ADDRESS_HIGH)) ssd1306_address = DISPLAY_ADDRESS_HIGH;
    else return false;
    uint8_t commands[sizeof init_commands];
    memcpy_P(commands, init_commands, sizeof commands);
    return i2c_write(ssd1306_address, 0x00, commands, sizeof commands);
}

/* Sent from here while the loop goes on: kept until the next command. */
static uint8_t page_command[3];

void ssd1306_write_page_async(uint8_t page, const uint8_t *data, uint8_t count) {
    page_command[0] = (uint8_t)(0xB0 | (page & 7)); /* page start address */
    page_command[1] = 0x00;                         /* column low nibble 0 */
    page_command[2] = 0x10;                         /* column high nibble 0 */
    if (count == 0) i2c_write_async(ssd1306_address, 0x00, page_command, sizeof page_command);
    else i2c_write_async_then(ssd1306_address, 0x00, page_command, sizeof page_command, 0x40, data, count);
}

void ssd1306_write_data_async(const uint8_t *data, uint8_t count) {
    i2c_write_async(ssd1306_address, 0x40, data, count);
}
