/* The settings kept in the board's EEPROM across resets and power cycles:
 * the display kind chosen with `tiltserial setup` (the record's layout is
 * src/core/tilt_settings.h). Absent or damaged: the display is detected. */
#ifndef TILTSERIAL_SETTINGS_H
#define TILTSERIAL_SETTINGS_H

#include <stdint.h>

/** The stored display kind (TILT_DISPLAY_*); false when none is stored. */
bool settings_display_kind(uint8_t *kind);
/** Stores `kind` (only the bytes that change are written: EEPROM wears). */
void settings_store_display_kind(uint8_t kind);
/** Forgets the stored kind (erases the record): the display is detected again. */
void settings_clear_display_kind(void);

#endif
