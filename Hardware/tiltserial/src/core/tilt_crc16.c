#include "tilt_crc16.h"

#ifdef __AVR__
#include <util/crc16.h>
#endif

/* No 512-byte table: flash matters more on the board. There avr-libc's
 * hand-written _crc_xmodem_update (same polynomial, no reflection) folds a
 * byte in about a tenth of the bitwise loop's time, which the 1 kHz sample
 * path needs (docs/perf/avr.md); elsewhere the bitwise loop. */
uint16_t tilt_crc16_update(uint16_t crc, uint8_t byte) {
#ifdef __AVR__
    return _crc_xmodem_update(crc, byte);
#else
    crc ^= (uint16_t)byte << 8;
    for (uint8_t bit = 0; bit < 8; bit++) {
        crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
#endif
}

uint16_t tilt_crc16(const uint8_t *data, size_t len) {
    uint16_t crc = TILT_CRC16_INITIAL;
    for (size_t i = 0; i < len; i++) crc = tilt_crc16_update(crc, data[i]);
    return crc;
}
