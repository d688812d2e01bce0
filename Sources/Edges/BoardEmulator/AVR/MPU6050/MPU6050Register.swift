extension MPU6050Model {
    /// Register addresses this model gives meaning to (register map rev 4.2,
    /// plus the undocumented offset and DMP registers drivers use).
    public enum Register {
        /// XA_OFFS_H, accelerometer X offset (undocumented in rev 4.2); Y at 0x08, Z at 0x0A, each a big-endian int16.
        public static let accelOffsetXHigh: UInt8 = 0x06
        /// XG_OFFS_USRH, gyro X offset (undocumented in rev 4.2); Y at 0x15, Z at 0x17, each a big-endian int16.
        public static let gyroOffsetXHigh: UInt8 = 0x13
        /// SMPLRT_DIV: sample rate = gyro output rate / (1 + SMPLRT_DIV).
        public static let sampleRateDivider: UInt8 = 0x19
        /// CONFIG (DLPF_CFG bits 2:0).
        public static let config: UInt8 = 0x1A
        /// GYRO_CONFIG (FS_SEL bits 4:3).
        public static let gyroConfig: UInt8 = 0x1B
        /// ACCEL_CONFIG (AFS_SEL bits 4:3).
        public static let accelConfig: UInt8 = 0x1C
        /// FIFO_EN: which sensors' samples the FIFO takes.
        public static let fifoEnable: UInt8 = 0x23
        /// INT_PIN_CFG: INT pin level and drive, LATCH_INT_EN (bit 5), INT_RD_CLEAR (bit 4).
        public static let intPinConfig: UInt8 = 0x37
        /// INT_ENABLE: which `Interrupt` bits raise the INT pin.
        public static let intEnable: UInt8 = 0x38
        /// INT_STATUS: the `Interrupt` bits that fired; reading it clears them.
        public static let intStatus: UInt8 = 0x3A
        /// ACCEL_XOUT_H: the first of the 14 data registers (accel X/Y/Z, TEMP_OUT, gyro X/Y/Z, each big-endian int16).
        public static let accelXHigh: UInt8 = 0x3B
        /// GYRO_ZOUT_L: the last of the 14 data registers.
        public static let gyroZLow: UInt8 = 0x48
        /// EXT_SENS_DATA_23, last read-only data register.
        public static let externalSensorDataEnd: UInt8 = 0x60
        /// SIGNAL_PATH_RESET: resets the gyro, accel and temperature signal paths (bits 2:0).
        public static let signalPathReset: UInt8 = 0x68
        /// USER_CTRL: FIFO_EN (bit 6), FIFO_RESET (bit 2), DMP enable and reset (bits 7, 3, undocumented).
        public static let userControl: UInt8 = 0x6A
        /// PWR_MGMT_1 (bit 7 reset, bit 6 sleep, bit 5 cycle, bit 3 TEMP_DIS).
        public static let powerManagement1: UInt8 = 0x6B
        /// PWR_MGMT_2 (LP_WAKE_CTRL 7:6, standby 5:0).
        public static let powerManagement2: UInt8 = 0x6C
        /// BANK_SEL: which 256-byte bank of DMP memory MEM_R_W reaches (undocumented).
        public static let bankSelect: UInt8 = 0x6D
        /// MEM_START_ADDR: the address within the bank for MEM_R_W (undocumented).
        public static let memoryStart: UInt8 = 0x6E
        /// MEM_R_W: reads or writes DMP memory, advancing the address (undocumented).
        public static let memoryReadWrite: UInt8 = 0x6F
        /// DMP program start address, high byte (undocumented; i2cdevlib's DMP_CFG_1).
        public static let dmpConfig1: UInt8 = 0x70
        /// DMP program start address, low byte (undocumented; i2cdevlib's DMP_CFG_2).
        public static let dmpConfig2: UInt8 = 0x71
        /// FIFO_COUNTH: bytes in the FIFO, high byte (reading it latches the count).
        public static let fifoCountHigh: UInt8 = 0x72
        /// FIFO_COUNTL: bytes in the FIFO, low byte.
        public static let fifoCountLow: UInt8 = 0x73
        /// FIFO_R_W: reading takes the FIFO's oldest byte.
        public static let fifoReadWrite: UInt8 = 0x74
        /// WHO_AM_I, reads 0x68.
        public static let whoAmI: UInt8 = 0x75
    }

    /// INT_STATUS / INT_ENABLE bits.
    public enum Interrupt {
        /// DATA_RDY_INT (bit 0): a new sample is in the data registers.
        public static let dataReady: UInt8 = 0x01
        /// DMP_INT (bit 1, undocumented): the DMP put a packet in the FIFO.
        public static let dmp: UInt8 = 0x02
        /// FIFO_OFLOW_INT (bit 4): the 1024-byte FIFO overflowed and lost its oldest bytes.
        public static let fifoOverflow: UInt8 = 0x10
    }
}
