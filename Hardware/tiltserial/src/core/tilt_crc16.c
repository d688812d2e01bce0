#include "tilt_crc16.h"

/* Bitwise rather than a 512-byte table: flash matters more than speed on the
 * board, which checks at most a few hundred bytes a second. */
uint16_t tilt_crc16_update(uint16_t crc, uint8_t byte) {
    crc ^= (uint16_t)byte << 8;
    for (uint8_t bit = 0; bit < 8; bit++) {
        crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
}

uint16_t tilt_crc16(const uint8_t *data, size_t len) {
    uint16_t crc = TILT_CRC16_INITIAL;
    for (size_t i = 0; i < len; i++) crc = tilt_crc16_update(crc, data[i]);
    return crc;
}
