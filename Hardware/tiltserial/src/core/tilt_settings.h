/* The board's stored settings: the record kept in its EEPROM (the display
 * kind and the display's clock chosen with `tiltserial setup`), as bytes. Pure: the firmware reads and
 * writes the bytes with avr/eeprom.h (settings.cpp), the host's native board
 * model keeps them in memory. */
#ifndef TILT_SETTINGS_H
#define TILT_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The record (layout 2): magic, layout, display kind (TILT_SETTINGS_NO_KIND:
 *  detect it), the display's clock (TILT_DISPLAY_CLOCK_*), checksum (low byte
 *  of the CRC-16/CCITT-FALSE of the first four). Layout 1, written by the
 *  first firmware with `tiltserial setup`, was magic, 1, kind, checksum of
 *  three: it still reads, as its kind at 400 kHz. An erased EEPROM reads 0xFF. */
#define TILT_SETTINGS_SIZE 5u
#define TILT_SETTINGS_MAGIC 0x54u /* 'T' */
#define TILT_SETTINGS_VERSION 2u
#define TILT_SETTINGS_NO_KIND 0xFFu

/** What the record holds. */
typedef struct {
    uint8_t kind;  /* a TILT_DISPLAY_* kind, or TILT_SETTINGS_NO_KIND */
    uint8_t clock; /* TILT_DISPLAY_CLOCK_* */
} tilt_settings;

/** Nothing stored: the display detected, at 400 kHz. */
tilt_settings tilt_settings_default(void);

/** The record holding `settings`; the erased record when they are the default
 *  (so `tiltserial setup --display auto` leaves the EEPROM as it came). */
void tilt_settings_encode(const tilt_settings *settings, uint8_t record[TILT_SETTINGS_SIZE]);

/** The erased record (all 0xFF): nothing stored. */
void tilt_settings_erased(uint8_t record[TILT_SETTINGS_SIZE]);

/** The settings the record holds. Erased, another layout, a bad checksum, or
 *  a kind or clock this firmware does not know: the default (detect, 400 kHz). */
tilt_settings tilt_settings_decode(const uint8_t record[TILT_SETTINGS_SIZE]);

#ifdef __cplusplus
}
#endif
#endif
