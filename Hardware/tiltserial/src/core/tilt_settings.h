/* The board's stored settings: the record kept in its EEPROM (a display
 * choice made with `tiltserial setup`), as bytes. Pure: the firmware reads and
 * writes the bytes with avr/eeprom.h (settings.cpp), the host's native board
 * model keeps them in memory. */
#ifndef TILT_SETTINGS_H
#define TILT_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The record: magic, layout version, display kind, checksum (low byte of the
 *  CRC-16/CCITT-FALSE of the first three). An erased EEPROM reads 0xFF. */
#define TILT_SETTINGS_SIZE 4u
#define TILT_SETTINGS_MAGIC 0x54u /* 'T' */
#define TILT_SETTINGS_VERSION 1u

/** The record storing display kind `kind` (a TILT_DISPLAY_* kind). */
void tilt_settings_encode(uint8_t kind, uint8_t record[TILT_SETTINGS_SIZE]);

/** The erased record (all 0xFF): no choice stored, the display is detected. */
void tilt_settings_erased(uint8_t record[TILT_SETTINGS_SIZE]);

/** The stored display kind, or false when there is none: erased, another
 *  layout, a bad checksum or a kind this firmware does not know (all mean
 *  "detect the display"). */
bool tilt_settings_decode(const uint8_t record[TILT_SETTINGS_SIZE], uint8_t *kind);

#ifdef __cplusplus
}
#endif
#endif
