// ranger: an HC-SR04 as Wokwi's example reads it, TRIG on D3 and ECHO on D2.
// Written for the BoardEmulator tests (TiltsimWokwiTests); 115200 baud:
//   "short=<us>"          once: the echo after a 4 µs trigger (too short to start one: 0)
//   "cm=<us / 58> us=<us>" every 50 ms: the echo pulse after a 10 µs trigger
#include <Arduino.h>

static unsigned long measure(unsigned int trigger_us) {
    digitalWrite(3, HIGH);
    delayMicroseconds(trigger_us);
    digitalWrite(3, LOW);
    return pulseIn(2, HIGH, 30000);
}

void setup() {
    Serial.begin(115200);
    pinMode(3, OUTPUT);
    pinMode(2, INPUT);
    Serial.print("short=");
    Serial.println(measure(4));
}

void loop() {
    unsigned long us = measure(10);
    Serial.print("cm=");
    Serial.print(us / 58);
    Serial.print(" us=");
    Serial.println(us);
    delay(50);
}
