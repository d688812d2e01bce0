/* The firmware's sample-rate rule, shared with the host's native board model.
 * With the MPU-6050's DLPF on (CONFIG 1..6) the gyro output rate is 1 kHz, so
 * the sample rate is 1000 / (1 + SMPLRT_DIV). */
#ifndef TILT_RATE_H
#define TILT_RATE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The divider whose rate 1000 / (1 + d) is nearest `rate_hz` (clamped to
 *  4..1000; a tie goes to the higher rate). */
uint8_t tilt_rate_divider(uint16_t rate_hz);
/** The rate HELLO announces for a divider: 1000 / (1 + d), rounded. */
uint16_t tilt_rate_hz(uint8_t divider);
/** The sample period for a divider, microseconds: exactly (1 + d) ms. */
uint32_t tilt_rate_period_us(uint8_t divider);
/** The DLPF_CFG whose bandwidth is below half the rate (datasheet table). */
uint8_t tilt_rate_dlpf(uint16_t rate_hz);

#ifdef __cplusplus
}
#endif
#endif
