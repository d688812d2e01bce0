/* Consistent Overhead Byte Stuffing (Cheshire & Baker 1999): removes every 0x00
 * from a payload so a single 0x00 can end each frame on the wire. */
#ifndef TILT_COBS_H
#define TILT_COBS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes COBS needs at most for `len` payload bytes (no delimiter). */
#define TILT_COBS_MAX_ENCODED(len) ((len) + (len) / 254 + 1)

/** Encodes `len` bytes into `out` (room for TILT_COBS_MAX_ENCODED(len)); no
 *  delimiter is appended. Returns the encoded length. */
size_t tilt_cobs_encode(const uint8_t *in, size_t len, uint8_t *out);

/** Decodes `len` bytes (without the delimiter) into `out`, which may be `in`
 *  itself (decoding in place is safe). Returns the decoded length, or -1 if the
 *  input is not valid COBS (a zero byte, or a code running past the end). */
int tilt_cobs_decode(const uint8_t *in, size_t len, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
