// mega_analog: the Mega's upper analog inputs (ADC8…ADC15, which the core
// selects with ADCSRB's MUX5). Prints "A0=<> A8=<> A15=<>" each time a
// reading changes.
void setup() {
    Serial.begin(115200);
}

void loop() {
    static int last[3] = {-1, -1, -1};
    int now[3] = {analogRead(A0), analogRead(A8), analogRead(A15)};
    if (memcmp(now, last, sizeof now) != 0) {
        memcpy(last, now, sizeof now);
        char line[40];
        snprintf(line, sizeof line, "A0=%d A8=%d A15=%d", now[0], now[1], now[2]);
        Serial.println(line);
    }
    delay(10);
}
