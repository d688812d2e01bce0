#include "mpu6050.h"

#include "config.h"
#include "i2c.h"

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

static uint8_t divider = 9; /* 1000 / (1 + 9) = 100 Hz */

/* The divider whose rate 1000 / (1 + d) is nearest `rate_hz` (4..1000). */
static uint8_t divider_for(uint16_t rate_hz) {
    if (rate_hz < 4) rate_hz = 4;
    if (rate_hz > 1000) rate_hz = 1000;
    uint16_t d = 1000u / rate_hz - 1u; /* rate(d) >= rate_hz > rate(d + 1) */
    if (d >= 249) return 249;
    /* Compare |1000/(1+d) - r| with |r - 1000/(2+d)| without fractions. */
    uint32_t a = 1000UL * (2u + d) - (uint32_t)rate_hz * (1u + d) * (2u + d);   /* scaled by (1+d)(2+d) */
    uint32_t b = (uint32_t)rate_hz * (1u + d) * (2u + d) - 1000UL * (1u + d);
    return (uint8_t)(a <= b ? d : d + 1);
}

/* DLPF setting with a bandwidth below half the sample rate (datasheet table). */
static uint8_t dlpf_for(uint16_t rate_hz) {
    if (rate_hz >= 400) return 1; /* 184 Hz */
    if (rate_hz >= 200) return 2; /* 94 Hz */
    if (rate_hz >= 100) return 3; /* 44 Hz */
    if (rate_hz >= 50) return 4;  /* 21 Hz */
    if (rate_hz >= 20) return 5;  /* 10 Hz */
    return 6;                     /* 5 Hz */
}

bool mpu6050_begin(uint16_t rate_hz, uint8_t accel_fs, uint8_t gyro_fs) {
    divider = divider_for(rate_hz); /* chosen even without a sensor, so HELLO reports a valid rate */
    uint8_t who = 0;
    if (!i2c_read_registers(MPU6050_ADDRESS, REG_WHO_AM_I, &who, 1) || who != 0x68) return false;
    /* With the DLPF on (CONFIG 1..6) the gyro output rate is 1 kHz, so rate = 1000 / (1 + div). */
    return i2c_write_register(MPU6050_ADDRESS, REG_PWR_MGMT_1, 0x01) /* awake, clock = PLL on X gyro */
        && i2c_write_register(MPU6050_ADDRESS, REG_CONFIG, dlpf_for(mpu6050_rate_hz()))
        && i2c_write_register(MPU6050_ADDRESS, REG_SMPLRT_DIV, divider)
        && i2c_write_register(MPU6050_ADDRESS, REG_GYRO_CONFIG, (uint8_t)((gyro_fs & 3u) << 3))
        && i2c_write_register(MPU6050_ADDRESS, REG_ACCEL_CONFIG, (uint8_t)((accel_fs & 3u) << 3))
        && i2c_write_register(MPU6050_ADDRESS, REG_INT_ENABLE, 0x01) /* DATA_RDY_EN */
        /* Clear a DATA_RDY left from the old settings: the first SAMPLE after HELLO
         * must be measured at the full scale that HELLO announces. */
        && mpu6050_data_ready() >= 0;
}

uint16_t mpu6050_rate_hz(void) { return (uint16_t)((2000u / (1u + divider) + 1u) / 2u); }

uint32_t mpu6050_period_us(void) { return 1000UL * (1u + divider); }

int8_t mpu6050_data_ready(void) {
    uint8_t status = 0;
    if (!i2c_read_registers(MPU6050_ADDRESS, REG_INT_STATUS, &status, 1)) return -1;
    return (status & 0x01) ? 1 : 0; /* DATA_RDY_INT; reading INT_STATUS clears it */
}

bool mpu6050_read_burst(uint8_t out[MPU6050_BURST_LEN]) {
    return i2c_read_registers(MPU6050_ADDRESS, REG_ACCEL_XOUT_H, out, MPU6050_BURST_LEN);
}
