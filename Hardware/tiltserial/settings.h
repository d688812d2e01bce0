/* The settings kept in the board's EEPROM across resets and power cycles:
 * the display kind and the display's clock chosen with `tiltserial setup`
 * (the record's layout is src/core/tilt_settings.h). Absent or damaged: the
 * display is detected and runs at 400 kHz. */
#ifndef TILTSERIAL_SETTINGS_H
#define TILTSERIAL_SETTINGS_H

#include <stdint.h>

#include "src/core/tilt_settings.h"

/** What the EEPROM holds (the default when nothing valid is stored). */
tilt_settings settings_load(void);
/** Stores `settings` (only the bytes that change are written: EEPROM wears). */
void settings_store(const tilt_settings *settings);

#endif
