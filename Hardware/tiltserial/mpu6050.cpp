#include "mpu6050.h"

#include "config.h"
#include "i2c.h"
#include "src/core/tilt_rate.h"

enum {
    REG_SMPLRT_DIV = 0x19,
    REG_CONFIG = 0x1A,
    REG_GYRO_CONFIG = 0x1B,
    REG_ACCEL_CONFIG = 0x1C,
    REG_INT_ENABLE = 0x38,
    REG_INT_STATUS = 0x3A,
    REG_ACCEL_XOUT_H = 0x3B,
    REG_PWR_MGMT_1 = 0x6B,
    REG_WHO_AM_I = 0x75,
};

bool mpu6050_begin(uint8_t divider, uint8_t accel_fs, uint8_t gyro_fs) {
    uint8_t who = 0;
    if (!i2c_read_registers(MPU6050_ADDRESS, REG_WHO_AM_I, &who, 1) || who != 0x68) return false;
    /* With the DLPF on (CONFIG 1..6) the gyro output rate is 1 kHz, so rate = 1000 / (1 + div). */
    return i2c_write_register(MPU6050_ADDRESS, REG_PWR_MGMT_1, 0x01) /* awake, clock = PLL on X gyro */
        && i2c_write_register(MPU6050_ADDRESS, REG_CONFIG, tilt_rate_dlpf(tilt_rate_hz(divider)))
        && i2c_write_register(MPU6050_ADDRESS, REG_SMPLRT_DIV, divider)
        && i2c_write_register(MPU6050_ADDRESS, REG_GYRO_CONFIG, (uint8_t)((gyro_fs & 3u) << 3))
        && i2c_write_register(MPU6050_ADDRESS, REG_ACCEL_CONFIG, (uint8_t)((accel_fs & 3u) << 3))
        && i2c_write_register(MPU6050_ADDRESS, REG_INT_ENABLE, 0x01) /* DATA_RDY_EN */
        /* Clear a DATA_RDY left from the old settings: the first SAMPLE after HELLO
         * must be measured at the full scale that HELLO announces. */
        && mpu6050_data_ready() >= 0;
}

int8_t mpu6050_data_ready(void) {
    uint8_t status = 0;
    if (!i2c_read_registers(MPU6050_ADDRESS, REG_INT_STATUS, &status, 1)) return -1;
    return (status & 0x01) ? 1 : 0; /* DATA_RDY_INT; reading INT_STATUS clears it */
}

bool mpu6050_read_burst(uint8_t out[MPU6050_BURST_LEN]) {
    return i2c_read_registers(MPU6050_ADDRESS, REG_ACCEL_XOUT_H, out, MPU6050_BURST_LEN);
}
