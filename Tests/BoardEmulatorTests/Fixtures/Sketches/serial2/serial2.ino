// serial2: a fixture sketch for the Mega's other UARTs. Serial (debug) and
// Serial2 (the one a Wokwi diagram's $serialMonitor wires reach) each say
// which they are; Serial2 echoes what it receives as "echo: LINE".
void setup() {
    Serial.begin(115200);
    Serial2.begin(9600);
    Serial.println(F("debug on Serial"));
    Serial2.println(F("hello from Serial2"));
}

void loop() {
    static char line[32];
    static uint8_t length;
    while (Serial2.available()) {
        char c = Serial2.read();
        if (c == '\n') {
            line[length] = 0;
            Serial2.print(F("echo: "));
            Serial2.println(line);
            length = 0;
        } else if (length < sizeof line - 1) {
            line[length++] = c;
        }
    }
}
