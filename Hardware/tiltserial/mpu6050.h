/* The MPU-6050 accelerometer/gyro and the parts that answer its register map
 * (MPU-6500, MPU-9250, MPU-9255, GY-521 look-alikes), register level
 * (MPU-6000/6050 register map rev 4.2; MPU-6500 register map rev 2.1). */
#ifndef TILTSERIAL_MPU6050_H
#define TILTSERIAL_MPU6050_H

#include <stdint.h>

#include "src/core/tilt_sensor.h"

#define MPU6050_BURST_LEN 14

/** The part found by the last mpu6050_begin: its address (0x68 or 0x69; 0 =
 *  none) and WHO_AM_I. */
typedef struct {
    uint8_t address, who_am_i;
    tilt_sensor_kind kind;
} mpu6050_part;
extern mpu6050_part mpu6050_found;

/** Finds the part (0x68, then 0x69: any WHO_AM_I but 0x00/0xFF), wakes it and
 *  applies the settings: SMPLRT_DIV `divider` (src/core/tilt_rate.h's rule
 *  chose it) with the low-pass filters on (CONFIG, and ACCEL_CONFIG2 on the
 *  MPU-6500 family), the full scales (0..3). False if no part answered. */
bool mpu6050_begin(uint8_t divider, uint8_t accel_fs, uint8_t gyro_fs);

/** 1 if a new sample is ready, 0 if not, -1 if the sensor did not answer. */
int8_t mpu6050_data_ready(void);

/** Reads the 14-byte burst from ACCEL_XOUT_H (0x3B): accel, temperature, gyro. */
bool mpu6050_read_burst(uint8_t out[MPU6050_BURST_LEN]);

/** INT_STATUS (0x3A) and the burst after it (0x3B..0x48) in one 15-byte
 *  read, which clears DATA_RDY: 1 if it was set (`out` holds the newest
 *  sample), 0 if not (`out` holds the sample before), -1 if the sensor did
 *  not answer. One transaction instead of a poll and a burst. */
int8_t mpu6050_read_status_burst(uint8_t out[MPU6050_BURST_LEN]);

#endif
