// ranger_one_pin: an HC-SR04 with TRIG and ECHO on one pin (D7), triggered as
// NewPing's one-pin mode does it (port writes, delayMicroseconds(10): an
// 8.9 µs pulse at 16 MHz). Written for the BoardEmulator tests
// (TiltsimWokwiTests); 115200 baud, every 50 ms:
//   "cm=<us / 58> edges=<n>"  the echo, then how often the pin changed in the
//                             next 20 ms with nothing triggering (0: the
//                             module's own echo did not trigger it again)
#include <Arduino.h>

static unsigned long ping(void) {
    DDRD |= _BV(7);
    PORTD &= ~_BV(7);
    delayMicroseconds(4);
    PORTD |= _BV(7);
    delayMicroseconds(10);
    PORTD &= ~_BV(7);
    DDRD &= ~_BV(7);
    return pulseIn(7, HIGH, 30000UL);
}

void setup() { Serial.begin(115200); }

void loop() {
    unsigned long us = ping();
    unsigned long start = millis();
    int edges = 0, last = digitalRead(7);
    while (millis() - start < 20) {
        int now = digitalRead(7);
        if (now != last) { edges++; last = now; }
    }
    Serial.print("cm=");
    Serial.print(us / 58);
    Serial.print(" edges=");
    Serial.println(edges);
    delay(30);
}
