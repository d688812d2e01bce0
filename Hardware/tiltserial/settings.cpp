#include "settings.h"

#include <avr/eeprom.h>

#include "src/core/tilt_settings.h"

/* The record sits at the start of the EEPROM. */
#define SETTINGS_ADDRESS ((uint8_t *)0)

bool settings_display_kind(uint8_t *kind) {
    uint8_t record[TILT_SETTINGS_SIZE];
    eeprom_read_block(record, SETTINGS_ADDRESS, sizeof record);
    return tilt_settings_decode(record, kind);
}

/* eeprom_update_block skips bytes that already hold their value; each byte
 * written takes about 3.4 ms, with the loop waiting (well within the
 * watchdog's 1 s), once per `tiltserial setup`. */
void settings_store_display_kind(uint8_t kind) {
    uint8_t record[TILT_SETTINGS_SIZE];
    tilt_settings_encode(kind, record);
    eeprom_update_block(record, SETTINGS_ADDRESS, sizeof record);
}

void settings_clear_display_kind(void) {
    uint8_t record[TILT_SETTINGS_SIZE];
    tilt_settings_erased(record);
    eeprom_update_block(record, SETTINGS_ADDRESS, sizeof record);
}
