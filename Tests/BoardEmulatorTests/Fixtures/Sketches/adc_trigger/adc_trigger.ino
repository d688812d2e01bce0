// adc_trigger: a fixture sketch for the ADC's auto trigger on Timer1's
// compare match B (ADTS = 5). Timer1 in CTC mode at 1 kHz (clk/64, OCR1A
// 249), OCR1B 100: a compare B each millisecond. Over 100 ms it counts the
// conversions (the ADC's interrupt) three ways: OCF1B cleared by an empty
// ISR (one a millisecond), cleared by nothing (the flag rises once: one),
// and cleared by a one written in the ADC's ISR (one a millisecond again).
// Prints "name=value" lines, then "done".
static volatile uint16_t conversions;
static volatile bool clearInISR;
ISR(ADC_vect) {
    conversions++;
    if (clearInISR) TIFR1 = _BV(OCF1B);
}
ISR(TIMER1_COMPB_vect) {}

static uint16_t count(bool compbISR, bool clearFlag) {
    TCCR1B = 0;
    TCNT1 = 0;
    TIFR1 = 0xFF;
    TIMSK1 = compbISR ? _BV(OCIE1B) : 0;
    clearInISR = clearFlag;
    conversions = 0;
    TCCR1B = _BV(WGM12) | _BV(CS11) | _BV(CS10);  // CTC, clk/64
    delay(100);
    TCCR1B = 0;
    delay(1);
    return conversions;
}

void setup() {
    Serial.begin(115200);
    TCCR1A = 0;
    OCR1A = 249;
    OCR1B = 100;
    ADMUX = _BV(REFS0);                                   // AVCC, A0
    ADCSRB = _BV(ADTS2) | _BV(ADTS0);                     // Timer1 compare B
    ADCSRA = _BV(ADEN) | _BV(ADATE) | _BV(ADIE) | _BV(ADIF) | 7;  // clk/128
    sei();
    Serial.print(F("with_isr="));
    Serial.println(count(true, false));
    Serial.print(F("never_cleared="));
    Serial.println(count(false, false));
    Serial.print(F("cleared_by_one="));
    Serial.println(count(false, true));
    Serial.println(F("done"));
}

void loop() {}
