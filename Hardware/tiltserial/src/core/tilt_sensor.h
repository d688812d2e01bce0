/* Which part of the MPU-6050 family answered, from its WHO_AM_I (register
 * 0x75). GY-521 boards sold as "MPU-6050" often carry an MPU-6500 or a
 * look-alike that answers the same register map with another ID; only a
 * missing device is refused. Shared with the host (a Swift test keeps the
 * host's names in step). */
#ifndef TILT_SENSOR_H
#define TILT_SENSOR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The two I2C addresses a part of the family can have (AD0 low, AD0 high), probed in this order. */
#define TILT_SENSOR_ADDRESS_LOW 0x68u
#define TILT_SENSOR_ADDRESS_HIGH 0x69u

typedef enum {
    TILT_SENSOR_MISSING = 0,   /* no ACK, or WHO_AM_I 0x00/0xFF (a floating or shorted bus) */
    TILT_SENSOR_MPU6050,       /* 0x68: MPU-6050 (and MPU-6000) */
    TILT_SENSOR_MPU6500,       /* 0x70: MPU-6500 */
    TILT_SENSOR_MPU9250,       /* 0x71: MPU-9250 */
    TILT_SENSOR_MPU9255,       /* 0x73: MPU-9255 */
    TILT_SENSOR_LOOKALIKE,     /* 0x98, 0x72, 0x74: sold as MPU-6050, answers like an MPU-6500 */
    TILT_SENSOR_UNKNOWN,       /* any other ID: run it as the MPU-6500 family, with a warning */
} tilt_sensor_kind;

/** The part a WHO_AM_I names. */
tilt_sensor_kind tilt_sensor_kind_of(uint8_t who_am_i);

/** True for the MPU-6500 register map (everything but the MPU-6050): its
 *  accelerometer has its own low-pass filter (ACCEL_CONFIG2, 0x1D) and its
 *  temperature reads raw / 333.87 + 21 °C instead of raw / 340 + 36.53. */
uint8_t tilt_sensor_is_6500_family(tilt_sensor_kind kind);

#ifdef __cplusplus
}
#endif
#endif
