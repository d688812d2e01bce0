// sei_window: a fixture sketch for the one instruction the chip runs after
// SEI and after RETI before it takes a pending interrupt. Prints
// "name=value" lines, then "done".
// - sei_nop_cli: Timer2's overflow made pending with interrupts off, then
//   `sei; nop; cli`: on the chip the handler runs once, after the nop.
// - isr_per_200_nops: INT0 at low level on D2 driven low (an output triggers
//   it too: the datasheet's software interrupt), then `sei`, 200 NOPs, `cli`:
//   one main instruction between handlers, so 200 calls on the chip.
#include <util/delay.h>

static volatile uint8_t timerCalls;
static volatile uint16_t int0Calls;

ISR(TIMER2_OVF_vect) {
    timerCalls++;
    TIMSK2 = 0;
}

ISR(INT0_vect) { int0Calls++; }

void setup() {
    Serial.begin(115200);

    cli();
    TCCR2A = 0;
    TCCR2B = _BV(CS20);  // no prescaler: an overflow every 256 cycles
    TIFR2 = _BV(TOV2);
    TIMSK2 = _BV(TOIE2);
    _delay_us(50);       // the overflow's flag is set: pending
    asm volatile("sei\n\tnop\n\tcli" ::: "memory");
    TIMSK2 = 0;
    uint8_t window = timerCalls;

    pinMode(2, OUTPUT);
    digitalWrite(2, LOW);
    EICRA &= (uint8_t)~(_BV(ISC01) | _BV(ISC00));  // low level
    EIMSK = _BV(INT0);
    asm volatile("sei\n\t.rept 200\n\tnop\n\t.endr\n\tcli" ::: "memory");
    EIMSK = 0;
    uint16_t perNops = int0Calls;
    sei();

    Serial.print(F("sei_nop_cli="));
    Serial.println(window);
    Serial.print(F("isr_per_200_nops="));
    Serial.println(perNops);
    Serial.println(F("done"));
}

void loop() {}
