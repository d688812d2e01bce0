// sleep_edges: a fixture sketch for power-down under INT0 edges the chip
// cannot see asleep. The MPU-6050 pulses its data-ready INT (on D2) at
// 100 Hz; INT0 is attached RISING; the watchdog interrupts every 0.25 s.
// Eight power-down sleeps: on the chip each lasts until the watchdog (an
// edge does not wake power-down), so the watchdog's handler runs 8 times
// and INT0's never. Prints "name=value" lines, then "done".
#include <Wire.h>
#include <avr/sleep.h>

static volatile uint8_t int0Calls, watchdogCalls;
static void onInt() { int0Calls++; }
ISR(WDT_vect) { watchdogCalls++; }

static void sensor(uint8_t reg, uint8_t value) {
    Wire.beginTransmission(0x68);
    Wire.write(reg);
    Wire.write(value);
    Wire.endTransmission();
}

void setup() {
    Serial.begin(115200);
    Wire.begin();
    sensor(0x6B, 0);  // awake
    sensor(0x19, 9);  // 100 Hz
    sensor(0x1A, 1);
    sensor(0x38, 1);  // data-ready INT
    cli();
    WDTCSR = _BV(WDCE) | _BV(WDE);
    WDTCSR = _BV(WDIE) | _BV(WDP2);  // interrupt mode, 0.25 s
    sei();
    attachInterrupt(digitalPinToInterrupt(2), onInt, RISING);
    int0Calls = 0;
    watchdogCalls = 0;
    Serial.flush();
    unsigned long start = millis();
    for (uint8_t i = 0; i < 8; i++) {
        set_sleep_mode(SLEEP_MODE_PWR_DOWN);
        sleep_mode();
    }
    detachInterrupt(digitalPinToInterrupt(2));
    Serial.print(F("watchdog_calls="));
    Serial.println(watchdogCalls);
    Serial.print(F("int0_calls="));
    Serial.println(int0Calls);
    Serial.print(F("millis_moved="));
    Serial.println(millis() - start);
    Serial.println(F("done"));
}

void loop() {}
