// erased_jump: a fixture sketch that calls a function pointer into erased
// flash (word 0x3000, far past this small sketch's code). Erased flash reads
// 0xFFFF, an instruction the chip runs on through (SBRS r31, 7), up to the end
// of flash; there a board's program counter wraps around, and simavr stops.
void setup() {
    Serial.begin(115200);
    Serial.println(F("jumping"));
    Serial.flush();
    ((void (*)(void))0x3000)();
}

void loop() {}
