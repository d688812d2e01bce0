#include "tilt_cobs.h"

size_t tilt_cobs_encode(const uint8_t *in, size_t len, uint8_t *out) {
    size_t code_at = 0, o = 1;
    uint8_t code = 1;
    for (size_t i = 0; i < len; i++) {
        if (in[i] == 0) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
        } else {
            out[o++] = in[i];
            if (++code == 0xFF) {
                out[code_at] = code;
                code_at = o++;
                code = 1;
            }
        }
    }
    out[code_at] = code;
    return o;
}

int tilt_cobs_decode(const uint8_t *in, size_t len, uint8_t *out) {
    size_t i = 0, o = 0;
    while (i < len) {
        uint8_t code = in[i++];
        if (code == 0 || i + code - 1 > len) return -1;
        for (uint8_t k = 1; k < code; k++) {
            if (in[i] == 0) return -1;
            out[o++] = in[i++];
        }
        /* A group shorter than 0xFF ends with an implied zero, except at the end. */
        if (code != 0xFF && i < len) out[o++] = 0;
    }
    return (int)o;
}
