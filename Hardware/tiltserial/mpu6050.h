/* The MPU-6050 accelerometer/gyro, register level (MPU-6000/6050 register map rev 4.2). */
#ifndef TILTSERIAL_MPU6050_H
#define TILTSERIAL_MPU6050_H

#include <stdint.h>

#define MPU6050_BURST_LEN 14

/** Checks WHO_AM_I, wakes the part and applies the settings: SMPLRT_DIV
 *  `divider` (src/core/tilt_rate.h's rule chose it) with the DLPF on, the full
 *  scales (0..3). Returns false if the sensor did not answer as an MPU-6050. */
bool mpu6050_begin(uint8_t divider, uint8_t accel_fs, uint8_t gyro_fs);

/** 1 if a new sample is ready, 0 if not, -1 if the sensor did not answer. */
int8_t mpu6050_data_ready(void);

/** Reads the 14-byte burst from ACCEL_XOUT_H (0x3B): accel, temperature, gyro. */
bool mpu6050_read_burst(uint8_t out[MPU6050_BURST_LEN]);

#endif
