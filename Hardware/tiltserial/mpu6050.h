/* The MPU-6050 accelerometer/gyro, register level (MPU-6000/6050 register map rev 4.2). */
#ifndef TILTSERIAL_MPU6050_H
#define TILTSERIAL_MPU6050_H

#include <stdint.h>

#define MPU6050_BURST_LEN 14

/** Checks WHO_AM_I, wakes the part and applies the settings. The rate is clamped
 *  to 4..1000 Hz and rounded to the nearest 1000 / (1 + SMPLRT_DIV); the full
 *  scales to 0..3. Returns false if the sensor did not answer as an MPU-6050. */
bool mpu6050_begin(uint16_t rate_hz, uint8_t accel_fs, uint8_t gyro_fs);

/** The rate the last mpu6050_begin chose, Hz (rounded). */
uint16_t mpu6050_rate_hz(void);
/** Its sample period, microseconds. */
uint32_t mpu6050_period_us(void);

/** 1 if a new sample is ready, 0 if not, -1 if the sensor did not answer. */
int8_t mpu6050_data_ready(void);

/** Reads the 14-byte burst from ACCEL_XOUT_H (0x3B): accel, temperature, gyro. */
bool mpu6050_read_burst(uint8_t out[MPU6050_BURST_LEN]);

#endif
