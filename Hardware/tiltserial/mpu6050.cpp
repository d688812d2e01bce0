#include "mpu6050.h"

#include <string.h>

#include "config.h"
#include "i2c.h"
#include "src/core/tilt_rate.h"

enum {
    REG_SMPLRT_DIV = 0x19,
    REG_CONFIG = 0x1A,
    REG_GYRO_CONFIG = 0x1B,
    REG_ACCEL_CONFIG = 0x1C,
    REG_ACCEL_CONFIG2 = 0x1D, /* MPU-6500 family only */
    REG_INT_ENABLE = 0x38,
    REG_INT_STATUS = 0x3A,
    REG_ACCEL_XOUT_H = 0x3B,
    REG_PWR_MGMT_1 = 0x6B,
    REG_WHO_AM_I = 0x75,
};

mpu6050_part mpu6050_found;

/* The first address whose WHO_AM_I is not 0x00/0xFF (a shorted or floating line). */
static void find_part(void) {
    static const uint8_t addresses[] = {TILT_SENSOR_ADDRESS_LOW, TILT_SENSOR_ADDRESS_HIGH};
    mpu6050_found.address = 0;
    mpu6050_found.who_am_i = 0;
    mpu6050_found.kind = TILT_SENSOR_MISSING;
    for (uint8_t i = 0; i < sizeof addresses; i++) {
        uint8_t who = 0;
        if (!i2c_read_registers(addresses[i], REG_WHO_AM_I, &who, 1)) continue;
        tilt_sensor_kind kind = tilt_sensor_kind_of(who);
        if (kind == TILT_SENSOR_MISSING) continue;
        mpu6050_found.address = addresses[i];
        mpu6050_found.who_am_i = who;
        mpu6050_found.kind = kind;
        return;
    }
}

bool mpu6050_begin(uint8_t divider, uint8_t accel_fs, uint8_t gyro_fs) {
    find_part();
    const uint8_t a = mpu6050_found.address;
    if (a == 0) return false;
    /* With the DLPF on (CONFIG 1..6) the gyro output rate is 1 kHz, so rate = 1000 / (1 + div).
     * The MPU-6500 family filters its accelerometer separately (ACCEL_CONFIG2,
     * A_DLPF_CFG with ACCEL_FCHOICE_B 0): the same index gives about the same
     * bandwidth (6050: 184/94/44/21/10/5 Hz; 6500: 184/92/41/20/10/5 Hz). */
    const uint8_t dlpf = tilt_rate_dlpf(tilt_rate_hz(divider));
    return i2c_write_register(a, REG_PWR_MGMT_1, 0x01) /* awake, clock = PLL on X gyro */
        && i2c_write_register(a, REG_CONFIG, dlpf)
        && (!tilt_sensor_is_6500_family(mpu6050_found.kind) || i2c_write_register(a, REG_ACCEL_CONFIG2, dlpf))
        && i2c_write_register(a, REG_SMPLRT_DIV, divider)
        && i2c_write_register(a, REG_GYRO_CONFIG, (uint8_t)((gyro_fs & 3u) << 3))
        && i2c_write_register(a, REG_ACCEL_CONFIG, (uint8_t)((accel_fs & 3u) << 3))
        && i2c_write_register(a, REG_INT_ENABLE, 0x01) /* DATA_RDY_EN */
        /* Clear a DATA_RDY left from the old settings: the first SAMPLE after HELLO
         * must be measured at the full scale that HELLO announces. */
        && mpu6050_data_ready() >= 0;
}

int8_t mpu6050_data_ready(void) {
    uint8_t status = 0;
    if (!i2c_read_registers(mpu6050_found.address, REG_INT_STATUS, &status, 1)) return -1;
    return (status & 0x01) ? 1 : 0; /* DATA_RDY_INT; reading INT_STATUS clears it */
}

bool mpu6050_read_burst(uint8_t out[MPU6050_BURST_LEN]) {
    return i2c_read_registers(mpu6050_found.address, REG_ACCEL_XOUT_H, out, MPU6050_BURST_LEN);
}

int8_t mpu6050_read_status_burst(uint8_t out[MPU6050_BURST_LEN]) {
    uint8_t status_and_burst[1 + MPU6050_BURST_LEN];
    if (!i2c_read_registers(mpu6050_found.address, REG_INT_STATUS, status_and_burst, sizeof status_and_burst)) return -1;
    memcpy(out, status_and_burst + 1, MPU6050_BURST_LEN);
    return (status_and_burst[0] & 0x01) ? 1 : 0;
}
