/* CRC-16/CCITT-FALSE (CRC-16/IBM-3740): polynomial 0x1021, initial 0xFFFF,
 * no reflection, no final XOR; check value for "123456789" is 0x29B1.
 * The protocol's frame check and the content tile's id (docs/protocol.md). */
#ifndef TILT_CRC16_H
#define TILT_CRC16_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILT_CRC16_INITIAL 0xFFFFu

/** Folds one byte into a running CRC (start from TILT_CRC16_INITIAL). */
uint16_t tilt_crc16_update(uint16_t crc, uint8_t byte);

/** The CRC of `len` bytes from the initial value. */
uint16_t tilt_crc16(const uint8_t *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
