#include "ssd1306.h"

#include <Wire.h>
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

bool ssd1306_begin(void) {
    Wire.beginTransmission(SSD1306_ADDRESS);
    Wire.write((uint8_t)0x00);
    for (uint8_t i = 0; i < sizeof init_commands; i++) Wire.write(pgm_read_byte(&init_commands[i]));
    return Wire.endTransmission() == 0;
}

bool ssd1306_set_page(uint8_t page) {
    Wire.beginTransmission(SSD1306_ADDRESS);
    Wire.write((uint8_t)0x00);
    Wire.write((uint8_t)(0xB0 | (page & 7))); /* page start address */
    Wire.write((uint8_t)0x00);                /* column low nibble 0 */
    Wire.write((uint8_t)0x10);                /* column high nibble 0 */
    return Wire.endTransmission() == 0;
}

bool ssd1306_write_data(const uint8_t *data, uint8_t count) {
    Wire.beginTransmission(SSD1306_ADDRESS);
    Wire.write((uint8_t)0x40);
    Wire.write(data, count);
    return Wire.endTransmission() == 0;
}
