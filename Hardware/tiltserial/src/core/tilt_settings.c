#include "tilt_settings.h"

#include "tilt_crc16.h"
#include "tilt_frames.h"

static uint8_t checksum(const uint8_t *record) { return (uint8_t)tilt_crc16(record, 3); }

void tilt_settings_encode(uint8_t kind, uint8_t record[TILT_SETTINGS_SIZE]) {
    record[0] = TILT_SETTINGS_MAGIC;
    record[1] = TILT_SETTINGS_VERSION;
    record[2] = kind;
    record[3] = checksum(record);
}

void tilt_settings_erased(uint8_t record[TILT_SETTINGS_SIZE]) {
    for (uint8_t i = 0; i < TILT_SETTINGS_SIZE; i++) record[i] = 0xFF;
}

bool tilt_settings_decode(const uint8_t record[TILT_SETTINGS_SIZE], uint8_t *kind) {
    if (record[0] != TILT_SETTINGS_MAGIC || record[1] != TILT_SETTINGS_VERSION) return false;
    if (record[3] != checksum(record) || record[2] > TILT_DISPLAY_KIND_LAST) return false;
    *kind = record[2];
    return true;
}
