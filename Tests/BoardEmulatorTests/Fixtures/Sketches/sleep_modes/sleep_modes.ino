// sleep_modes: a fixture sketch for the sleep modes and the watchdog's
// interrupt mode. It prints, one step after another:
//   "wdt N"       WDT interrupts in 500 ms of millis() with WDIE alone at
//                 16 ms: the chip keeps interrupting (about 31)
//   "idle us=N"   micros() across an idle sleep: Timer0 wakes it within 1024
//   "nose wdt=N"  SLEEP with SE clear does nothing: no WDT interrupt meanwhile
//   "down"        then power-down until the watchdog (0.5 s); prints
//   "up wdt=N ms=M"  one WDT interrupt, millis() nearly still
//   "edge"        then power-down with INT0 on a falling edge and the
//                 watchdog (0.5 s) as the way out; the test pulls D2 low:
//   "edge int0=N" the chip sees no edge asleep: 0
//   "level"       then power-down with INT0 at LOW; the test pulls D2 low:
//   "level int0=N"  the sleep ends: 1
#include <avr/sleep.h>
#include <avr/wdt.h>

static volatile uint16_t wdtCalls;
static volatile uint16_t int0Calls;
ISR(WDT_vect) { wdtCalls++; }

static void int0Isr() {
    int0Calls++;
    detachInterrupt(digitalPinToInterrupt(2));
}

// WDIE alone (no reset), with the prescaler bits `wdp`.
static void watchdogInterrupts(uint8_t wdp) {
    cli();
    wdt_reset();
    WDTCSR = _BV(WDCE) | _BV(WDE);
    WDTCSR = _BV(WDIE) | wdp;
    sei();
}

static void watchdogOff() {
    cli();
    wdt_reset();
    MCUSR &= ~_BV(WDRF);
    WDTCSR = _BV(WDCE) | _BV(WDE);
    WDTCSR = 0;
    sei();
}

static void powerDown() {
    set_sleep_mode(SLEEP_MODE_PWR_DOWN);
    sleep_mode();
}

void setup() {
    Serial.begin(115200);
    pinMode(2, INPUT_PULLUP);

    watchdogInterrupts(0);  // 16 ms
    delay(500);
    watchdogOff();
    Serial.print(F("wdt "));
    Serial.println(wdtCalls);
    Serial.flush();

    set_sleep_mode(SLEEP_MODE_IDLE);
    uint32_t before = micros();
    sleep_mode();
    uint32_t idle = micros() - before;
    Serial.print(F("idle us="));
    Serial.println(idle);
    Serial.flush();

    TIMSK0 = 0;  // no Timer0 to wake an idle sleep that should not have begun
    wdtCalls = 0;
    watchdogInterrupts(0);
    sleep_disable();
    sleep_cpu();
    uint16_t noSleep = wdtCalls;
    watchdogOff();
    TIMSK0 = _BV(TOIE0);
    Serial.print(F("nose wdt="));
    Serial.println(noSleep);

    Serial.println(F("down"));
    Serial.flush();
    uint32_t ms = millis();
    wdtCalls = 0;
    watchdogInterrupts(_BV(WDP2) | _BV(WDP0));  // 0.5 s
    powerDown();
    watchdogOff();
    ms = millis() - ms;
    Serial.print(F("up wdt="));
    Serial.print(wdtCalls);
    Serial.print(F(" ms="));
    Serial.println(ms);

    int0Calls = 0;
    attachInterrupt(digitalPinToInterrupt(2), int0Isr, FALLING);
    Serial.println(F("edge"));
    Serial.flush();
    watchdogInterrupts(_BV(WDP2) | _BV(WDP0));
    powerDown();
    watchdogOff();
    detachInterrupt(digitalPinToInterrupt(2));
    Serial.print(F("edge int0="));
    Serial.println(int0Calls);

    while (digitalRead(2) == LOW) {}
    int0Calls = 0;
    attachInterrupt(digitalPinToInterrupt(2), int0Isr, LOW);
    Serial.println(F("level"));
    Serial.flush();
    powerDown();
    Serial.print(F("level int0="));
    Serial.println(int0Calls);
}

void loop() {}
