// button_port: a button on D2 (INPUT_PULLUP) beside an LED on D4 that the
// loop toggles all the time, both on port D, and a potentiometer on A6 (the
// Nano's analog-only input). Written for the BoardEmulator tests
// (TiltsimWokwiTests); 115200 baud:
//   "D2=<level>"   each time the button's pin reads another level
//   "A6=<value>"   analogRead(A6), every 100 ms
// On a board the button holds D2 low whatever the sketch writes to PORTD;
// simavr's port had the pull-up win again at every write to the LED's pin.
#include <Arduino.h>

void setup() {
    Serial.begin(115200);
    pinMode(2, INPUT_PULLUP);
    pinMode(4, OUTPUT);
}

void loop() {
    static int last = -1;
    static unsigned long printed;
    digitalWrite(4, !digitalRead(4));  // a PORTD write every pass
    int level = digitalRead(2);
    if (level != last) {
        Serial.print("D2=");
        Serial.println(level);
        last = level;
    }
    if (millis() - printed >= 100) {
        printed = millis();
        Serial.print("A6=");
        Serial.println(analogRead(A6));
    }
}
