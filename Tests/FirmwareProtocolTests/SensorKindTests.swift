import FirmwareCore
import Testing

/// Which WHO_AM_I the firmware accepts (src/core/tilt_sensor.c): the IDs of the
/// InvenSense register maps (MPU-6000/6050 rev 4.2: 0x68; MPU-6500 rev 2.1:
/// 0x70; MPU-9250 rev 1.6: 0x71; MPU-9255: 0x73) and the look-alikes buyers
/// report on GY-521 boards (0x98, 0x72, 0x74). Only a missing part is refused.
@Suite struct SensorKindTests {
    @Test(arguments: [
        (0x68, TILT_SENSOR_MPU6050), (0x70, TILT_SENSOR_MPU6500), (0x71, TILT_SENSOR_MPU9250),
        (0x73, TILT_SENSOR_MPU9255), (0x98, TILT_SENSOR_LOOKALIKE), (0x72, TILT_SENSOR_LOOKALIKE),
        (0x74, TILT_SENSOR_LOOKALIKE), (0x00, TILT_SENSOR_MISSING), (0xFF, TILT_SENSOR_MISSING),
        (0x12, TILT_SENSOR_UNKNOWN), (0x69, TILT_SENSOR_UNKNOWN),
    ] as [(UInt8, tilt_sensor_kind)])
    func whoAmINamesThePart(whoAmI: UInt8, kind: tilt_sensor_kind) {
        #expect(tilt_sensor_kind_of(whoAmI) == kind, "WHO_AM_I 0x\(String(whoAmI, radix: 16))")
    }

    /// Only the MPU-6050 lacks ACCEL_CONFIG2 and reads temperature as raw / 340 + 36.53.
    @Test func everyAcceptedPartButTheMPU6050UsesThe6500RegisterMap() {
        #expect(tilt_sensor_is_6500_family(TILT_SENSOR_MPU6050) == 0)
        #expect(tilt_sensor_is_6500_family(TILT_SENSOR_MISSING) == 0)
        for kind in [TILT_SENSOR_MPU6500, TILT_SENSOR_MPU9250, TILT_SENSOR_MPU9255, TILT_SENSOR_LOOKALIKE, TILT_SENSOR_UNKNOWN] {
            #expect(tilt_sensor_is_6500_family(kind) == 1, "\(kind)")
        }
    }
}
