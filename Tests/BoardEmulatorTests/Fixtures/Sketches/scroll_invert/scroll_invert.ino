// scroll_invert: what the SSD1306's registers do to the glass, phase by phase
// at fixed board times (no input needed, so two runs are byte-identical and a
// test knows in advance when to look). Written for the BoardEmulator tests;
// Wire at 400 kHz, display at 0x3C, 115200 baud. Each phase starts at the
// millis() given below, sends its commands and prints "<letter> <micros>".
//   A 300, B 700, C 1100, D 1500, E 2700, F 3900, G 4300, H 4700, I 5100, Z 5500
//   A  set-up (0xA1, 0xC8, 0xDA 0x12, charge pump, clock 0x80, pre-charge 0xF1,
//      64 rows, contrast 0xCF, horizontal addressing) and the test pattern
//   B  inverse (0xA7), contrast 0x10
//   C  normal again, display offset 4 (0xD3), start line 8 (0x48)
//   D  offset and start line 0, right horizontal scroll of pages 0-1, a step
//      every 5 frames (0x26 00 00 00 01 00 FF), activated (0x2F)
//   E  scroll off, pattern again, vertical scroll area 0/64 (0xA3), diagonal
//      scroll (0x29 00 00 00 07 01: pages 0-7 right, 5 frames, 1 row), on
//   F  scroll off, pattern again, entire display on (0xA5)
//   G  RAM shown again (0xA4), display off (0xAE)
//   H  display on, segment and COM remaps back to reset (0xA0, 0xC0)
//   I  0xA1, 0xC8, multiplex ratio 32 (0xA8 0x1F)
//   Z  end
#include <Arduino.h>
#include <Wire.h>

static const uint8_t OLED = 0x3C;

static void command_list(const uint8_t *bytes, uint8_t count) {
    Wire.beginTransmission(OLED);
    Wire.write((uint8_t)0x00);
    Wire.write(bytes, count);
    Wire.endTransmission();
}

#define COMMANDS(...) do { const uint8_t c_[] = { __VA_ARGS__ }; command_list(c_, sizeof c_); } while (0)

/// The test pattern: GDDRAM page p, column c.
static uint8_t pattern(uint8_t p, uint8_t c) {
    return (uint8_t)(c * 37 + p * 101 + ((c * c) >> 2));
}

static void draw_pattern(void) {
    COMMANDS(0x20, 0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07);
    for (uint8_t p = 0; p < 8; p++) {
        for (uint8_t c = 0; c < 128; c += 16) {
            Wire.beginTransmission(OLED);
            Wire.write((uint8_t)0x40);
            for (uint8_t k = 0; k < 16; k++) Wire.write(pattern(p, (uint8_t)(c + k)));
            Wire.endTransmission();
        }
    }
}

static void at(uint32_t ms) {
    while (millis() < ms) {}
}

static void phase(char letter) {
    Serial.print(letter);
    Serial.print(' ');
    Serial.println(micros());
}

void setup() {
    Serial.begin(115200);
    Wire.begin();
    Wire.setClock(400000);

    at(300);
    COMMANDS(0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0xA1, 0xC8, 0xDA, 0x12,
             0x81, 0xCF, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0x2E, 0xAF);
    draw_pattern();
    phase('A');

    at(700);
    COMMANDS(0xA7, 0x81, 0x10);
    phase('B');

    at(1100);
    COMMANDS(0xA6, 0xD3, 0x04, 0x48);
    phase('C');

    at(1500);
    COMMANDS(0xD3, 0x00, 0x40, 0x26, 0x00, 0x00, 0x00, 0x01, 0x00, 0xFF, 0x2F);
    phase('D');

    at(2700);
    COMMANDS(0x2E);
    draw_pattern();
    COMMANDS(0xA3, 0x00, 0x40, 0x29, 0x00, 0x00, 0x00, 0x07, 0x01, 0x2F);
    phase('E');

    at(3900);
    COMMANDS(0x2E);
    draw_pattern();
    COMMANDS(0xA5);
    phase('F');

    at(4300);
    COMMANDS(0xA4, 0xAE);
    phase('G');

    at(4700);
    COMMANDS(0xAF, 0xA0, 0xC0);
    phase('H');

    at(5100);
    COMMANDS(0xA1, 0xC8, 0xA8, 0x1F);
    phase('I');

    at(5500);
    phase('Z');
}

void loop() {}
