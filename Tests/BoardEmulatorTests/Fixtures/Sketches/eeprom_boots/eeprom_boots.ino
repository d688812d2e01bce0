// eeprom_boots: a fixture sketch that counts its boots in EEPROM byte 0
// (an erased EEPROM reads 0xFF: the first boot writes 0) and prints "boot N".
#include <EEPROM.h>

void setup() {
    Serial.begin(115200);
    uint8_t boots = EEPROM.read(0) + 1;
    EEPROM.write(0, boots);
    Serial.print(F("boot "));
    Serial.println(boots);
}

void loop() {}
