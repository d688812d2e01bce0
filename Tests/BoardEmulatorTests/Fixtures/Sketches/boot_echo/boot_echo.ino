// boot_echo: a fixture sketch for `tiltsim run` (Arduino core, no parts).
// Prints a banner at boot, echoes each line it receives ("echo: LINE"),
// answers "crash" with a FATAL line, and prints "tick MS" every 250 ms.
static char line[64];
static uint8_t length;
static unsigned long lastTick;

void setup() {
    Serial.begin(115200);
    Serial.println(F("boot_echo 1.0 ready"));
}

void loop() {
    while (Serial.available() > 0) {
        char c = (char)Serial.read();
        if (c == '\r') continue;
        if (c != '\n') {
            if (length < sizeof line - 1) line[length++] = c;
            continue;
        }
        line[length] = 0;
        length = 0;
        if (strcmp(line, "crash") == 0) {
            Serial.println(F("FATAL: asked to fail"));
        } else {
            Serial.print(F("echo: "));
            Serial.println(line);
        }
    }
    if (millis() - lastTick >= 250) {
        lastTick += 250;
        Serial.print(F("tick "));
        Serial.println(lastTick);
    }
}
