// analog_parts: what Wokwi's joystick, photoresistor module and NTC sensor give a sketch.
// Written for the BoardEmulator tests (TiltsimWokwiTests); 115200 baud, one
// line each time a reading changes:
//   "H=<A1> V=<A0> S=<D2> L=<A2> D=<D7> T=<A3>"
// (the joystick's HORZ, VERT and SEL with the pull-up; the module's AO and DO;
// the NTC sensor's OUT).
#include <Arduino.h>

void setup() {
    Serial.begin(115200);
    pinMode(2, INPUT_PULLUP);
    pinMode(7, INPUT);
}

void loop() {
    static int last[6] = {-1, -1, -1, -1, -1, -1};
    int now[6] = {analogRead(A1), analogRead(A0), digitalRead(2), analogRead(A2), digitalRead(7), analogRead(A3)};
    if (memcmp(now, last, sizeof now) != 0) {
        memcpy(last, now, sizeof now);
        char line[56];
        snprintf(line, sizeof line, "H=%d V=%d S=%d L=%d D=%d T=%d", now[0], now[1], now[2], now[3], now[4], now[5]);
        Serial.println(line);
    }
    delay(10);
}
