#include "tilt_settings.h"

#include "tilt_crc16.h"
#include "tilt_frames.h"

static uint8_t checksum(const uint8_t *record, uint8_t length) { return (uint8_t)tilt_crc16(record, length); }

tilt_settings tilt_settings_default(void) {
    tilt_settings settings = {TILT_SETTINGS_NO_KIND, TILT_DISPLAY_CLOCK_400KHZ};
    return settings;
}

void tilt_settings_encode(const tilt_settings *settings, uint8_t record[TILT_SETTINGS_SIZE]) {
    if (settings->kind == TILT_SETTINGS_NO_KIND && settings->clock == TILT_DISPLAY_CLOCK_400KHZ) {
        tilt_settings_erased(record);
        return;
    }
    record[0] = TILT_SETTINGS_MAGIC;
    record[1] = TILT_SETTINGS_VERSION;
    record[2] = settings->kind;
    record[3] = settings->clock;
    record[4] = checksum(record, 4);
}

void tilt_settings_erased(uint8_t record[TILT_SETTINGS_SIZE]) {
    for (uint8_t i = 0; i < TILT_SETTINGS_SIZE; i++) record[i] = 0xFF;
}

tilt_settings tilt_settings_decode(const uint8_t record[TILT_SETTINGS_SIZE]) {
    tilt_settings settings = tilt_settings_default();
    if (record[0] != TILT_SETTINGS_MAGIC) return settings;
    if (record[1] == 1u) { /* layout 1: magic, 1, kind, checksum of three */
        if (record[3] == checksum(record, 3) && record[2] <= TILT_DISPLAY_KIND_LAST) settings.kind = record[2];
        return settings;
    }
    if (record[1] != TILT_SETTINGS_VERSION || record[4] != checksum(record, 4)) return settings;
    bool kind_known = record[2] <= TILT_DISPLAY_KIND_LAST || record[2] == TILT_SETTINGS_NO_KIND;
    if (!kind_known || record[3] > TILT_DISPLAY_CLOCK_LAST) return settings;
    settings.kind = record[2];
    settings.clock = record[3];
    return settings;
}
