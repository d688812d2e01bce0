/* The screen shown while no host is talking: a few lines of 5x7 text. */
#ifndef TILTSERIAL_STATUS_SCREEN_H
#define TILTSERIAL_STATUS_SCREEN_H

#include <stdint.h>

/** Renders columns first..first+count of `page` of the status screen. The
 *  sensor flag picks "WAITING FOR HOST" or "NO SENSOR"; no display flag is needed
 *  (nothing is drawn without one). */
void status_screen_span(bool sensor_ok, uint8_t page, uint8_t first, uint8_t count, uint8_t *out);

#endif
