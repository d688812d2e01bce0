/// What a part puts on an analog input, as the millivolts that give a reading:
/// the chip's ADC (and Wokwi's) floors Vin · 1024 / 5 V.
enum WokwiADC {
    /// The smallest whole millivolts that convert to `reading` (0…1023).
    static func millivolts(reading: Int) -> UInt32 {
        UInt32((min(1023, max(0, reading)) * 5000 + 1023) / 1024)
    }

    /// The smallest whole millivolts that convert to the reading `volts`
    /// gives; rounding to millivolts first read 100 000 lux as 7, not 8.
    static func millivolts(volts: Double) -> UInt32 {
        millivolts(reading: Int((volts * 1024 / 5).rounded(.down)))
    }
}
