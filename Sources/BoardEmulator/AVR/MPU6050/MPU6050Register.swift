extension MPU6050Model {
    /// Register addresses this model gives meaning to (register map rev 4.2,
    /// plus the undocumented offset and DMP registers drivers use).
    public enum Register {
        public static let accelOffsetXHigh: UInt8 = 0x06   // XA_OFFS_H; Y at 0x08, Z at 0x0A
        public static let gyroOffsetXHigh: UInt8 = 0x13    // XG_OFFS_USRH; Y at 0x15, Z at 0x17
        public static let sampleRateDivider: UInt8 = 0x19  // SMPLRT_DIV
        public static let config: UInt8 = 0x1A             // CONFIG (DLPF_CFG bits 2:0)
        public static let gyroConfig: UInt8 = 0x1B         // GYRO_CONFIG (FS_SEL bits 4:3)
        public static let accelConfig: UInt8 = 0x1C        // ACCEL_CONFIG (AFS_SEL bits 4:3)
        public static let fifoEnable: UInt8 = 0x23         // FIFO_EN
        public static let intPinConfig: UInt8 = 0x37       // INT_PIN_CFG
        public static let intEnable: UInt8 = 0x38          // INT_ENABLE
        public static let intStatus: UInt8 = 0x3A          // INT_STATUS
        public static let accelXHigh: UInt8 = 0x3B         // first of 14 data registers
        public static let gyroZLow: UInt8 = 0x48           // last data register
        public static let externalSensorDataEnd: UInt8 = 0x60  // EXT_SENS_DATA_23, last read-only data register
        public static let signalPathReset: UInt8 = 0x68    // SIGNAL_PATH_RESET
        public static let userControl: UInt8 = 0x6A        // USER_CTRL
        public static let powerManagement1: UInt8 = 0x6B   // PWR_MGMT_1 (bit 7 reset, bit 6 sleep, bit 5 cycle, bit 3 TEMP_DIS)
        public static let powerManagement2: UInt8 = 0x6C   // PWR_MGMT_2 (LP_WAKE_CTRL 7:6, standby 5:0)
        public static let bankSelect: UInt8 = 0x6D         // BANK_SEL (DMP memory bank)
        public static let memoryStart: UInt8 = 0x6E        // MEM_START_ADDR
        public static let memoryReadWrite: UInt8 = 0x6F    // MEM_R_W
        public static let dmpConfig1: UInt8 = 0x70         // DMP program start address, high byte
        public static let dmpConfig2: UInt8 = 0x71         // low byte
        public static let fifoCountHigh: UInt8 = 0x72      // FIFO_COUNTH
        public static let fifoCountLow: UInt8 = 0x73       // FIFO_COUNTL
        public static let fifoReadWrite: UInt8 = 0x74      // FIFO_R_W
        public static let whoAmI: UInt8 = 0x75             // WHO_AM_I, reads 0x68
    }

    /// INT_STATUS / INT_ENABLE bits.
    public enum Interrupt {
        public static let dataReady: UInt8 = 0x01
        public static let dmp: UInt8 = 0x02
        public static let fifoOverflow: UInt8 = 0x10
    }
}
