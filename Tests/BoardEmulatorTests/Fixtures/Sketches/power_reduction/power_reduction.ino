// power_reduction: a fixture sketch for PRR's timer bits. Prints
//   "millis off A kept B on C": how far millis() moved over 100 ms of
//   delayMicroseconds with Timer0 powered down (A), still down after its
//   clock register was written (B), and powered up again (C), where that
//   write is lost, as the chip ignores writes to a module powered down;
//   "idle wakes N": the wake-ups of an idle sleep with Timer0 down until the
//   watchdog's interrupt (64 ms), as LowPower's idle(..., TIMER0_OFF, ...).
#include <avr/power.h>
#include <avr/sleep.h>
#include <avr/wdt.h>

volatile bool dog = false;
ISR(WDT_vect) { dog = true; }

static unsigned long millisOver100ms() {
    unsigned long before = millis();
    for (int i = 0; i < 100; i++) delayMicroseconds(1000);
    return millis() - before;
}

void setup() {
    Serial.begin(115200);
    power_timer0_disable();
    unsigned long off = millisOver100ms();
    TCCR0B = _BV(CS00);  // no prescaler: millis() 64 times too fast, were the write kept
    unsigned long kept = millisOver100ms();
    power_timer0_enable();
    unsigned long on = millisOver100ms();
    Serial.print(F("millis off "));
    Serial.print(off);
    Serial.print(F(" kept "));
    Serial.print(kept);
    Serial.print(F(" on "));
    Serial.println(on);
    Serial.flush();

    unsigned wakes = 0;
    cli();
    wdt_reset();
    WDTCSR = _BV(WDCE) | _BV(WDE);
    WDTCSR = _BV(WDIE) | _BV(WDP1);  // interrupt in 64 ms
    sei();
    power_timer0_disable();
    set_sleep_mode(SLEEP_MODE_IDLE);
    while (!dog) {
        sleep_mode();
        wakes++;
    }
    power_timer0_enable();
    wdt_disable();
    Serial.print(F("idle wakes "));
    Serial.println(wakes);
}

void loop() {}
