// int_level: a fixture sketch for INT0 at low level. D2 has its pull-up on;
// once the test holds it low, the sketch enables INT0 at LOW, the line
// already low: on the chip the interrupt comes at once and again after every
// return while the line stays low. The ISR detaches itself after 100 calls
// (the usual wake-from-sleep pattern detaches after one); the sketch prints
// "calls N" 20 ms later, then "high calls N" after the line went high again
// and the interrupt was enabled once more. "flags N" counts the times INTF0
// read 1 (in the ISR and after it detached, the line still low): the chip
// keeps the flag 0 at low level ("always cleared"), so 0.
static volatile uint16_t calls, flags;

static void isr() {
    if (EIFR & _BV(INTF0)) flags++;
    if (++calls >= 100) detachInterrupt(digitalPinToInterrupt(2));
}

void setup() {
    Serial.begin(115200);
    pinMode(2, INPUT_PULLUP);
    Serial.println(F("ready"));
    while (digitalRead(2) == HIGH) {}
    attachInterrupt(digitalPinToInterrupt(2), isr, LOW);
    delay(20);
    Serial.print(F("calls "));
    Serial.println(calls);
    if (EIFR & _BV(INTF0)) flags++;
    Serial.print(F("flags "));
    Serial.println(flags);
    while (digitalRead(2) == LOW) {}
    calls = 0;
    attachInterrupt(digitalPinToInterrupt(2), isr, LOW);
    delay(20);
    Serial.print(F("high calls "));
    Serial.println(calls);
}

void loop() {}
