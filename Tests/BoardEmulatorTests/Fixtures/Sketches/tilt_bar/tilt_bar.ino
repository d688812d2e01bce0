// tilt_bar: a fixture sketch for `tiltsim run` (Arduino core + Wire).
// Every 50 ms reads the MPU-6050's accel X (0x68) and prints "ax=N"; draws a
// bar on the SSD1306 (0x3C) whose length follows the tilt: columns left of
// 64 + ax/256 lit, the rest dark, written in horizontal addressing mode.
#include <Wire.h>

static const uint8_t MPU = 0x68, OLED = 0x3C;

static void command(uint8_t c) {
    Wire.beginTransmission(OLED);
    Wire.write(0x00);
    Wire.write(c);
    Wire.endTransmission();
}

static int16_t readAccelX() {
    Wire.beginTransmission(MPU);
    Wire.write(0x3B);
    Wire.endTransmission(false);
    Wire.requestFrom(MPU, (uint8_t)2);
    int16_t high = Wire.read();
    return (int16_t)(high << 8 | Wire.read());
}

static void drawBar(uint8_t length) {
    static const uint8_t setup[] = {0x21, 0, 127, 0x22, 0, 7};
    for (uint8_t c : setup) command(c);
    for (uint16_t i = 0; i < 1024; i += 16) {
        Wire.beginTransmission(OLED);
        Wire.write(0x40);
        for (uint8_t k = 0; k < 16; k++) Wire.write(((i + k) % 128) < length ? 0xFF : 0x00);
        Wire.endTransmission();
    }
}

void setup() {
    Serial.begin(115200);
    Wire.begin();
    Wire.setClock(400000);
    Wire.beginTransmission(MPU);
    Wire.write(0x6B);
    Wire.write(0x00);  // wake
    Wire.endTransmission();
    static const uint8_t init[] = {0xAE, 0x20, 0x00, 0x8D, 0x14, 0xA1, 0xC8, 0xAF};
    for (uint8_t c : init) command(c);
    Serial.println(F("tilt_bar ready"));
}

void loop() {
    static unsigned long last;
    if (millis() - last < 50) return;
    last += 50;
    int16_t ax = readAccelX();
    Serial.print(F("ax="));
    Serial.println(ax);
    int16_t length = 64 + ax / 256;
    drawBar((uint8_t)(length < 0 ? 0 : length > 128 ? 128 : length));
}
