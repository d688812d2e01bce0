// u8x8_tiles: the SSD1306 access pattern of U8g2/U8x8, written for the
// BoardEmulator tests (Wire at 400 kHz, display at 0x3C, or 0x3D if only that
// answers; 115200 baud).
// 1. Fresh from power-on, no 0x20 command: page addressing is the reset
//    default. At page 3, column 126, four data bytes 0x11 0x22 0x33 0x44: the
//    column wraps to 0 in the same page (page 4 stays empty). Prints "P".
// 2. U8g2's SSD1306 128x64 set-up (horizontal addressing 0x20 0x00, 0xA1,
//    0xC8, charge pump on), display on, then tiles placed the way U8x8's
//    draw_tile does: column high/low nibble commands and a page command, then
//    8 data bytes per tile. Tile (tx, ty) byte k = tx * 29 + ty * 7 + k * 3 + 1.
//    Tiles: (0,0), (3,2), (7,4), two tiles from (10,5), two tiles from (15,6)
//    (the second wraps to column 0 of page 7: horizontal addressing over the
//    full range). Prints "T".
#include <Arduino.h>
#include <Wire.h>

static uint8_t OLED = 0x3C;

static void commands(const uint8_t *bytes, uint8_t count) {
    Wire.beginTransmission(OLED);
    Wire.write((uint8_t)0x00);
    Wire.write(bytes, count);
    Wire.endTransmission();
}

static void data(const uint8_t *bytes, uint8_t count) {
    Wire.beginTransmission(OLED);
    Wire.write((uint8_t)0x40);
    Wire.write(bytes, count);
    Wire.endTransmission();
}

static void draw_tiles(uint8_t tx, uint8_t ty, uint8_t count) {
    uint8_t x = tx * 8;
    const uint8_t place[] = { (uint8_t)(0x10 | (x >> 4)), (uint8_t)(x & 15), (uint8_t)(0xB0 | ty) };
    commands(place, sizeof place);
    uint8_t bytes[16];
    for (uint8_t i = 0; i < count * 8; i++) {
        uint8_t t = tx + i / 8, k = i % 8;
        bytes[i] = (uint8_t)(t * 29 + ty * 7 + k * 3 + 1);
    }
    data(bytes, count * 8);
}

void setup() {
    Serial.begin(115200);
    Wire.begin();
    Wire.setClock(400000);
    Wire.beginTransmission(OLED);
    if (Wire.endTransmission() != 0) OLED = 0x3D;

    const uint8_t at_page_3[] = { 0xB3, 0x0E, 0x17 };  // page 3, column 0x7E
    commands(at_page_3, sizeof at_page_3);
    const uint8_t four[] = { 0x11, 0x22, 0x33, 0x44 };
    data(four, sizeof four);
    Serial.println('P');

    // U8g2's u8x8_d_ssd1306_128x64_noname init sequence, then power save off.
    const uint8_t init[] = {
        0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00,
        0xA1, 0xC8, 0xDA, 0x12, 0x81, 0xCF, 0xD9, 0xF1, 0xDB, 0x40, 0x2E, 0xA4, 0xA6,
        0xAF,
    };
    commands(init, sizeof init);
    draw_tiles(0, 0, 1);
    draw_tiles(3, 2, 1);
    draw_tiles(7, 4, 1);
    draw_tiles(10, 5, 2);
    draw_tiles(15, 6, 2);
    Serial.println('T');
}

void loop() {}
