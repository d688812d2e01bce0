/* The screen shown while no host is talking: a few lines of 5x7 text. Shared
 * with the host's native board model, which draws it with this same code. */
#ifndef TILT_STATUS_H
#define TILT_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint8_t fw_major, fw_minor, fw_patch; /* the title: "TILTSERIAL 1.0.0" */
    bool sensor_ok;                       /* "WAITING FOR HOST" or "NO SENSOR" */
    uint8_t sensor_who_am_i;              /* the part found ("MPU6500 AT 68", "ID 98 AT 68") */
    uint8_t sensor_address;               /* 0x68 or 0x69 */
    uint8_t display_kind;                 /* TILT_DISPLAY_*: an SH1106 is named on line 7 too */
    bool display_stored;                  /* the kind was set (EEPROM), not detected: "SH1106 SET" */
} tilt_status_info;

/** Renders columns first..first+count of `page` (0..7) of the status screen
 *  into out[0..count). first + count must be at most 128. */
void tilt_status_span(const tilt_status_info *info, uint8_t page, uint8_t first, uint8_t count, uint8_t *out);

/** Renders the same span of the display test pattern (`tiltserial setup`):
 *  a border on the outermost rows and columns, so a picture shifted by two
 *  columns (an SH1106 driven as an SSD1306, or the other way) loses one side
 *  and shows noise or a gap on the other, and in the middle the kind being
 *  tried and the question, "IS THE BORDER WHOLE". */
void tilt_status_pattern_span(uint8_t display_kind, uint8_t page, uint8_t first, uint8_t count, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
