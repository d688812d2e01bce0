#include "tilt_rate.h"

uint8_t tilt_rate_divider(uint16_t rate_hz) {
    if (rate_hz < 4u) rate_hz = 4u;
    if (rate_hz > 1000u) rate_hz = 1000u;
    uint16_t d = (uint16_t)(1000u / rate_hz - 1u); /* rate(d) >= rate_hz > rate(d + 1) */
    if (d >= 249u) return 249u;
    /* Compare |1000/(1+d) - r| with |r - 1000/(2+d)| without fractions, scaled by (1+d)(2+d). */
    const uint32_t r = rate_hz, lo = 1u + (uint32_t)d, hi = 2u + (uint32_t)d;
    uint32_t a = 1000u * hi - r * lo * hi;
    uint32_t b = r * lo * hi - 1000u * lo;
    return (uint8_t)(a <= b ? d : d + 1u);
}

uint16_t tilt_rate_hz(uint8_t divider) { return (uint16_t)((2000u / (1u + divider) + 1u) / 2u); }

uint32_t tilt_rate_period_us(uint8_t divider) { return (uint32_t)1000u * (1u + (uint32_t)divider); }

uint8_t tilt_rate_dlpf(uint16_t rate_hz) {
    if (rate_hz >= 400u) return 1u; /* 184 Hz */
    if (rate_hz >= 200u) return 2u; /* 94 Hz */
    if (rate_hz >= 100u) return 3u; /* 44 Hz */
    if (rate_hz >= 50u) return 4u;  /* 21 Hz */
    if (rate_hz >= 20u) return 5u;  /* 10 Hz */
    return 6u;                      /* 5 Hz */
}
