// eeprom_time: a fixture sketch for an EEPROM write's time. Prints
//   "EEPE set T us": how long EEPE stays set after one write (Timer1 at 4 us);
//   "100 writes W us, N wrong, 100 updates U us": EEPROM.write of 100 bytes,
//   the bytes read back, then EEPROM.update with the same bytes (no writes).
#include <EEPROM.h>

void setup() {
    Serial.begin(115200);
    TCCR1A = 0;
    TCCR1B = _BV(CS11) | _BV(CS10);  // clk/64: 4 us a tick, 262 ms before it wraps
    noInterrupts();
    EEAR = 200;
    EEDR = 0x5A;
    EECR |= _BV(EEMPE);
    EECR |= _BV(EEPE);
    TCNT1 = 0;
    while (EECR & _BV(EEPE)) {}
    unsigned ticks = TCNT1;
    interrupts();
    Serial.print(F("EEPE set "));
    Serial.print(ticks * 4UL);
    Serial.println(F(" us"));

    unsigned long t0 = micros();
    for (int i = 0; i < 100; i++) EEPROM.write(i, i);
    unsigned long writes = micros() - t0;
    int wrong = 0;
    for (int i = 0; i < 100; i++) wrong += EEPROM.read(i) != i;
    t0 = micros();
    for (int i = 0; i < 100; i++) EEPROM.update(i, i);
    unsigned long updates = micros() - t0;
    Serial.print(F("100 writes "));
    Serial.print(writes);
    Serial.print(F(" us, "));
    Serial.print(wrong);
    Serial.print(F(" wrong, 100 updates "));
    Serial.print(updates);
    Serial.println(F(" us"));
}

void loop() {}
