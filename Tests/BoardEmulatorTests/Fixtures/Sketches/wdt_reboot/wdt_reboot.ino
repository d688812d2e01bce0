// wdt_reboot: a fixture sketch for the reboot idiom (watchdog at 15 ms and a
// loop). Prints "boot N MCUSR=X D3=L" (N kept in EEPROM byte 0, X the reset
// cause the sketch sees, L what D3 reads under INPUT_PULLUP with nothing
// wired: 1 on every boot), then "rebooting" 100 ms later, and lets the
// watchdog reset the board.
#include <EEPROM.h>
#include <avr/wdt.h>

void setup() {
    uint8_t cause = MCUSR;
    Serial.begin(115200);
    uint8_t boots = EEPROM.read(0) + 1;
    EEPROM.write(0, boots);
    Serial.print(F("boot "));
    Serial.print(boots);
    Serial.print(F(" MCUSR="));
    Serial.print(cause, HEX);
    pinMode(3, INPUT_PULLUP);
    Serial.print(F(" D3="));
    Serial.println(digitalRead(3));
    delay(100);
    Serial.println(F("rebooting"));
    Serial.flush();
    wdt_enable(WDTO_15MS);
    for (;;) {}
}

void loop() {}
