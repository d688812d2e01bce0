// uart_time: a fixture sketch for the UART's byte time. At 9600 baud (8N1,
// ten bit times a byte: 1041.7 µs) it sends 100 bytes through Serial, waits
// for the last to leave (flush: TXC), and prints how long that took in µs;
// then the same at 9600 8E1 (eleven bit times: 1145.8 µs a byte).
static void timed(uint8_t config, const char *name) {
    Serial.begin(9600, config);
    Serial.flush();
    uint32_t start = micros();
    for (uint8_t i = 0; i < 100; i++) Serial.write('.');
    Serial.flush();
    uint32_t took = micros() - start;
    Serial.begin(115200);
    Serial.print(name);
    Serial.print(F(" 100 bytes us="));
    Serial.println(took);
    Serial.flush();
}

void setup() {
    timed(SERIAL_8N1, "8N1");
    timed(SERIAL_8E1, "8E1");
}

void loop() {}
