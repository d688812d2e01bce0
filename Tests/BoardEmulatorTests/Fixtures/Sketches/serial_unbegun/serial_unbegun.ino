// serial_unbegun: a fixture sketch that prints before Serial.begin, as a
// sketch whose Serial.begin sits behind `#if DEBUG` does. Its first 'b' fits
// the core's buffer; then 100 more bytes: the 64th waits for ever (the
// transmitter is off, so no byte ever leaves), and pin 13 never goes high.
void setup() {
    pinMode(13, OUTPUT);
    Serial.print('b');
    for (uint8_t i = 0; i < 100; i++) Serial.print('x');
    digitalWrite(13, HIGH);
}

void loop() {}
