#include "settings.h"

#include <avr/eeprom.h>

/* The record sits at the start of the EEPROM. */
#define SETTINGS_ADDRESS ((uint8_t *)0)

tilt_settings settings_load(void) {
    uint8_t record[TILT_SETTINGS_SIZE];
    eeprom_read_block(record, SETTINGS_ADDRESS, sizeof record);
    return tilt_settings_decode(record);
}

/* eeprom_update_block skips bytes that already hold their value; each byte
 * written takes about 3.4 ms, with the loop waiting (well within the
 * watchdog's 1 s), once per `tiltserial setup`. */
void settings_store(const tilt_settings *settings) {
    uint8_t record[TILT_SETTINGS_SIZE];
    tilt_settings_encode(settings, record);
    eeprom_update_block(record, SETTINGS_ADDRESS, sizeof record);
}
