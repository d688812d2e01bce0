// load_cell: an HX711 (DT on D3, SCK on D2) read with the core's shiftIn, as
// the common libraries do on AVR. Written for the BoardEmulator tests
// (TiltsimWokwiTests); 115200 baud:
//   "woke ready=<0|1>"   once: DT, with a reading ready, right after a power-down
//                        (SCK high 100 µs) and wake-up: 0, it converts afresh
//   "raw=<counts>"       every 150 ms: the reading, 24-bit two's complement widened
#include <Arduino.h>

static long readCell() {
    while (digitalRead(3) == HIGH) {}  // conversion running
    noInterrupts();
    uint8_t high = shiftIn(3, 2, MSBFIRST);
    uint8_t middle = shiftIn(3, 2, MSBFIRST);
    uint8_t low = shiftIn(3, 2, MSBFIRST);
    digitalWrite(2, HIGH);  // the 25th pulse: channel A, gain 128 next
    digitalWrite(2, LOW);
    interrupts();
    unsigned long value = (unsigned long)high << 16 | (unsigned long)middle << 8 | low;
    if (high & 0x80) value |= 0xFF000000UL;
    return (long)value;
}

void setup() {
    Serial.begin(115200);
    pinMode(2, OUTPUT);
    pinMode(3, INPUT_PULLUP);
    readCell();
    while (digitalRead(3) == HIGH) {}  // the next reading is ready: DT low until SCK moves
    digitalWrite(2, HIGH);
    delayMicroseconds(100);
    digitalWrite(2, LOW);
    Serial.print("woke ready=");
    Serial.println(digitalRead(3) == LOW ? 1 : 0);
}

void loop() {
    Serial.print("raw=");
    Serial.println(readCell());
    delay(150);
}
