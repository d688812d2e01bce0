// int_flags: a fixture sketch for the interrupt flags a written one clears
// (EIFR's INTFn, PCIFR's PCIFn, ADCSRA's ADIF), and for pin-change
// interrupts on a pin made an output. It drives D2, D3 and D8 itself (an
// external interrupt follows its pin as an output too) and prints one
// "name=value" line each, then "done". An interrupt is served an instruction
// or more after its flag is set (or after sei): counts are read 10 µs later.
#include <avr/wdt.h>

static volatile uint8_t int0Calls, int1Calls, pcintCalls, watchdogCalls;
ISR(INT0_vect) {
    if (++int0Calls >= 100) EIMSK &= ~_BV(INT0);  // at low level it comes again after every return
}
ISR(INT1_vect) { int1Calls++; }
ISR(WDT_vect) { watchdogCalls++; }
ISR(PCINT0_vect) { pcintCalls++; }
static volatile uint8_t tov1Calls, adcCalls;
ISR(TIMER1_OVF_vect) { tov1Calls++; }
ISR(ADC_vect) { adcCalls++; }

static void report(const __FlashStringHelper *name, long value) {
    Serial.print(name);
    Serial.print('=');
    Serial.println(value);
}

static void rise(uint8_t pin) {
    digitalWrite(pin, LOW);
    digitalWrite(pin, HIGH);
}

static void reportLater(const __FlashStringHelper *name, volatile uint8_t &count) {
    delayMicroseconds(10);
    report(name, count);
}

void setup() {
    Serial.begin(115200);
    pinMode(2, OUTPUT);
    pinMode(3, OUTPUT);
    EICRA = _BV(ISC11) | _BV(ISC10) | _BV(ISC01) | _BV(ISC00);  // both on rising edges, masked
    EIFR = _BV(INTF0) | _BV(INTF1);
    report(F("eifr_after_clear"), EIFR);

    // 50 edges among 100 polls: a flag is seen once per edge.
    uint8_t seen = 0;
    for (uint8_t i = 0; i < 100; i++) {
        if (i % 2 == 0) rise(3);
        if (EIFR & _BV(INTF1)) {
            seen++;
            EIFR = _BV(INTF1);
        }
    }
    report(F("polled_edges"), seen);

    // SBI clears only its own flag, CBI none (I/O 0x1C: single-bit on this chip).
    rise(2);
    rise(3);
    report(F("eifr_both"), EIFR);
    EIFR &= ~_BV(INTF0);  // CBI
    report(F("eifr_after_cbi"), EIFR);
    EIFR |= _BV(INTF0);  // SBI
    report(F("eifr_after_sbi"), EIFR);

    // A flag cleared while its interrupt waits for sei: no call.
    cli();
    EIMSK = _BV(INT1);
    rise(3);
    EIFR = _BV(INTF1);
    sei();
    reportLater(F("int1_calls_cleared"), int1Calls);
    rise(3);
    reportLater(F("int1_calls_edge"), int1Calls);
    EIMSK = 0;

    // INT0 at low level, enabled while the line is high, then the line falls: it
    // comes again and again while the line stays low (the ISR stops it at 100).
    digitalWrite(2, HIGH);
    EICRA &= ~(_BV(ISC01) | _BV(ISC00));
    EIFR = _BV(INTF0);
    EIMSK |= _BV(INT0);
    digitalWrite(2, LOW);
    delay(2);
    report(F("int0_low_calls"), int0Calls);
    digitalWrite(2, HIGH);

    // PCINT0 on D8: no call for pinMode(OUTPUT) of a pin already low, one per change.
    PCMSK0 = _BV(PCINT0);
    PCIFR = _BV(PCIF0);
    PCICR = _BV(PCIE0);
    pinMode(8, OUTPUT);
    reportLater(F("pcint_after_output"), pcintCalls);
    digitalWrite(8, HIGH);
    reportLater(F("pcint_after_high"), pcintCalls);
    digitalWrite(8, LOW);
    reportLater(F("pcint_after_low"), pcintCalls);
    PCICR = 0;
    digitalWrite(8, HIGH);
    report(F("pcifr_masked_change"), PCIFR & _BV(PCIF0));
    PCIFR = _BV(PCIF0);
    report(F("pcifr_after_clear"), PCIFR & _BV(PCIF0));

    // ADIF: set by a conversion, cleared by a one; 10 conversions waited on it.
    ADCSRA |= _BV(ADSC);
    while (ADCSRA & _BV(ADSC)) {}
    report(F("adif_done"), (ADCSRA >> ADIF) & 1);
    ADCSRA |= _BV(ADIF);
    report(F("adif_after_clear"), (ADCSRA >> ADIF) & 1);
    unsigned long start = micros();
    for (uint8_t i = 0; i < 10; i++) {
        ADCSRA |= _BV(ADSC);
        while (!(ADCSRA & _BV(ADIF))) {}
        ADCSRA |= _BV(ADIF);
    }
    report(F("adif_10_us"), micros() - start);

    // TIFR1: a one clears its flag only, a 0 nothing, SBI its bit (simavr cleared every flag at any write).
    TCCR1A = 0;
    TCCR1B = _BV(CS10);  // clk/1: TOV1 every 4.1 ms
    OCR1A = 1000;
    OCR1B = 2000;
    TIMSK1 = 0;
    delay(5);
    report(F("tifr1_set"), TIFR1 & 7);
    TIFR1 = 0;
    report(F("tifr1_after_zero"), TIFR1 & 7);
    TIFR1 = _BV(TOV1);
    report(F("tifr1_after_tov1"), TIFR1 & 7);
    TIFR1 |= _BV(OCF1A);  // SBI
    report(F("tifr1_after_sbi"), TIFR1 & 7);
    TCCR1B = 0;

    // ACI: a one written to a clear flag leaves it clear.
    ACSR = _BV(ACI);
    report(F("aci_after_clear"), (ACSR >> ACI) & 1);

    // A flag set while its interrupt is masked is served as soon as it is
    // unmasked (the flag stays set until then; the call clears it).
    TIFR1 = _BV(TOV1);
    TCCR1B = _BV(CS10);
    delay(5);  // an overflow every 4.1 ms
    TCCR1B = 0;
    report(F("tov1_masked"), (TIFR1 >> TOV1) & 1);
    TIMSK1 = _BV(TOIE1);
    reportLater(F("tov1_calls_unmasked"), tov1Calls);
    report(F("tov1_after_call"), (TIFR1 >> TOV1) & 1);
    TIMSK1 = 0;
    EIMSK = 0;
    EICRA = _BV(ISC11) | _BV(ISC10);
    EIFR = _BV(INTF1);
    uint8_t int1Before = int1Calls;
    rise(3);
    EIMSK = _BV(INT1);
    delayMicroseconds(10);
    report(F("int1_calls_unmasked"), int1Calls - int1Before);
    EIMSK = 0;
    PCICR = 0;
    PCIFR = _BV(PCIF0);
    uint8_t pcintBefore = pcintCalls;
    digitalWrite(8, LOW);
    PCICR = _BV(PCIE0);
    delayMicroseconds(10);
    report(F("pcint_calls_unmasked"), pcintCalls - pcintBefore);
    PCICR = 0;
    ADCSRA |= _BV(ADSC);
    while (ADCSRA & _BV(ADSC)) {}
    ADCSRA = (ADCSRA & ~_BV(ADIF)) | _BV(ADIE);  // ADIF written 0 keeps it (|= would write its one: cleared)
    reportLater(F("adc_calls_unmasked"), adcCalls);
    ADCSRA &= ~_BV(ADIE);

    // WDIF: set by the watchdog's interrupt mode while interrupts are off,
    // cleared by a one (WDIE kept): no call after sei; the next timeout calls.
    cli();
    wdt_reset();
    WDTCSR = _BV(WDCE) | _BV(WDE);
    WDTCSR = _BV(WDIE);  // interrupt mode, 16 ms
    for (uint8_t ms = 0; ms < 20; ms++) delayMicroseconds(1000);  // (20000 would overflow its 16 bits)
    report(F("wdif_timeout"), (WDTCSR >> WDIF) & 1);
    WDTCSR = _BV(WDIF) | _BV(WDIE);
    report(F("wdif_after_clear"), (WDTCSR >> WDIF) & 1);
    sei();
    reportLater(F("wdt_calls_cleared"), watchdogCalls);
    delay(20);
    report(F("wdt_calls_timeout"), watchdogCalls);
    wdt_disable();
    Serial.println(F("done"));
}

void loop() {}
