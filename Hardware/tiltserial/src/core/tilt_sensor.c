#include "tilt_sensor.h"

tilt_sensor_kind tilt_sensor_kind_of(uint8_t who_am_i) {
    switch (who_am_i) {
    case 0x00: case 0xFF: return TILT_SENSOR_MISSING;
    case 0x68: return TILT_SENSOR_MPU6050;
    case 0x70: return TILT_SENSOR_MPU6500;
    case 0x71: return TILT_SENSOR_MPU9250;
    case 0x73: return TILT_SENSOR_MPU9255;
    case 0x98: case 0x72: case 0x74: return TILT_SENSOR_LOOKALIKE;
    default: return TILT_SENSOR_UNKNOWN;
    }
}

uint8_t tilt_sensor_is_6500_family(tilt_sensor_kind kind) {
    return kind != TILT_SENSOR_MISSING && kind != TILT_SENSOR_MPU6050;
}
