// adc_refs: a fixture sketch for the ADC's references. "vcc N": the usual
// readVcc, the 1.1 V bandgap converted against AVCC (1.1 V · 1023 · 1000 /
// the reading, mV); "temp N": the internal temperature sensor against the
// 1.1 V reference (ATmega328P: 314 mV at 25 °C, about 292); then "a0 N"
// whenever analogRead(A0) changes (the chip: Vin · 1024 / 5 V, at most 1023).
static uint16_t convert(uint8_t admux) {
    ADMUX = admux;
    delay(2);  // the reference settles
    ADCSRA |= _BV(ADSC);
    while (bit_is_set(ADCSRA, ADSC)) {}
    return ADC;
}

void setup() {
    Serial.begin(115200);
    analogRead(A0);  // the core's ADC set-up: enabled, clk/128
    uint16_t bandgap = convert(_BV(REFS0) | 0x0E);
    Serial.print(F("vcc "));
    Serial.println(bandgap ? 1125300UL / bandgap : 0);
    Serial.print(F("temp "));
    Serial.println(convert(_BV(REFS1) | _BV(REFS0) | 0x08));
}

void loop() {
    static int last = -1;
    int value = analogRead(A0);
    if (value == last) return;
    last = value;
    Serial.print(F("a0 "));
    Serial.println(value);
}
