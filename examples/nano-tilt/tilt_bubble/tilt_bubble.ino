// tilt_bubble: an MPU-6050 + SSD1306 sketch on an Arduino Nano, for the Wokwi
// examples (tiltsim wokwi, or wokwi-cli). Every 100 ms it reads the sensor's
// accelerometer at ±2 g, prints "ax=N ay=N az=N" (raw counts, 16384 per g),
// draws a framed screen with an 8x8 bubble that slides with the tilt, and
// lights the LED on D13 while |ax| or |ay| exceeds 0.25 g. A button from D2
// to GND prints "pressed" and "released". At boot it prints "pot=N", what
// analogRead(A0) gives (a potentiometer's wiper on A0), and again whenever
// the knob has moved by more than 4.
#include <Wire.h>

static const uint8_t MPU = 0x68, OLED = 0x3C, LED = 13, BUTTON = 2;

static void command(uint8_t c) {
    Wire.beginTransmission(OLED);
    Wire.write(0x00);
    Wire.write(c);
    Wire.endTransmission();
}

static void readAccel(int16_t a[3]) {
    Wire.beginTransmission(MPU);
    Wire.write(0x3B);
    Wire.endTransmission(false);
    Wire.requestFrom(MPU, (uint8_t)6);
    for (uint8_t i = 0; i < 3; i++) {
        int16_t high = Wire.read();
        a[i] = (int16_t)(high << 8 | Wire.read());
    }
}

// The bubble's column (0..120) and row (0..56) for a tilt: centred when level.
static uint8_t place(int16_t counts, uint8_t centre, uint8_t limit) {
    int16_t p = centre + counts / 512;
    return (uint8_t)(p < 1 ? 1 : p > limit ? limit : p);
}

static void draw(uint8_t bx, uint8_t by) {
    static const uint8_t window[] = {0x21, 0, 127, 0x22, 0, 7};
    for (uint8_t c : window) command(c);
    for (uint16_t i = 0; i < 1024; i += 16) {
        Wire.beginTransmission(OLED);
        Wire.write(0x40);
        for (uint8_t k = 0; k < 16; k++) {
            uint8_t column = (i + k) % 128, page = (i + k) / 128;
            uint8_t bits = 0;
            if (column == 0 || column == 127) bits = 0xFF;
            if (page == 0) bits |= 0x01;
            if (page == 7) bits |= 0x80;
            if (column >= bx && column < bx + 8) {
                // Rows by .. by+7 of this page.
                for (uint8_t b = 0; b < 8; b++) {
                    uint8_t row = page * 8 + b;
                    if (row >= by && row < by + 8) bits |= 1 << b;
                }
            }
            Wire.write(bits);
        }
        Wire.endTransmission();
    }
}

static int shownPot;

static void printPot(int pot) {
    shownPot = pot;
    Serial.print(F("pot="));
    Serial.println(pot);
}

void setup() {
    Serial.begin(115200);
    pinMode(LED, OUTPUT);
    pinMode(BUTTON, INPUT_PULLUP);
    Wire.begin();
    Wire.setClock(400000);
    Wire.beginTransmission(MPU);
    Wire.write(0x6B);
    Wire.write(0x00);  // wake
    bool found = Wire.endTransmission() == 0;
    static const uint8_t init[] = {0xAE, 0x20, 0x00, 0x8D, 0x14, 0xA1, 0xC8, 0xAF};
    for (uint8_t c : init) command(c);
    Serial.println(found ? F("tilt_bubble: MPU-6050 found") : F("tilt_bubble: no MPU-6050"));
    printPot(analogRead(A0));
}


void loop() {
    static unsigned long last;
    static bool wasPressed;
    bool pressed = digitalRead(BUTTON) == LOW;
    if (pressed != wasPressed) {
        wasPressed = pressed;
        Serial.println(pressed ? F("pressed") : F("released"));
    }
    if (millis() - last < 100) return;
    last += 100;
    int pot = analogRead(A0);
    if (abs(pot - shownPot) > 4) printPot(pot);
    int16_t a[3];
    readAccel(a);
    Serial.print(F("ax="));
    Serial.print(a[0]);
    Serial.print(F(" ay="));
    Serial.print(a[1]);
    Serial.print(F(" az="));
    Serial.println(a[2]);
    bool tilted = abs(a[0]) > 4096 || abs(a[1]) > 4096;
    digitalWrite(LED, tilted ? HIGH : LOW);
    draw(place(a[0], 60, 119), place(a[1], 28, 55));
}
