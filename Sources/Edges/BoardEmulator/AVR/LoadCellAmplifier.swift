/// An HX711 load cell amplifier (Wokwi's `wokwi-hx711`) on two of the
/// board's pins: SCK (the sketch's clock) and DT (its data out).
///
/// DT is high while a conversion runs and falls when one is ready, ten a
/// second (the RATE pin low, as breakouts wire it). Each rising edge of SCK
/// then shifts out the next of the reading's 24 bits, most significant
/// first, two's complement; the 25th edge (and a 26th or 27th, the gain of
/// the next reading, which Wokwi does not model either) raises DT until the
/// next conversion. SCK held high over 60 µs powers the chip down; when SCK
/// falls it starts converting afresh. The reading is the load times 420 a
/// kilogram (Wokwi's part: 0–2100 for the 5 kg cell, 0–21 000 for the 50 kg),
/// saturating at the 24-bit limits. Simulation thread only.
final class LoadCellAmplifier: PinWatchingPart {
    /// Counts a kilogram of load reads.
    static let countsPerKilogram = 420.0
    /// Between conversions: 10 samples a second.
    static let conversionMicros = 100_000.0
    /// SCK high this long powers the chip down (datasheet: 60 µs).
    static let powerDownMicros = 60.0

    private let data: AVRPin
    /// The load on the cell, kg.
    var kilograms: Double

    /// The reading being shifted out, and how many of its bits SCK has had (nil: converting).
    private var reading: UInt32 = 0
    private var pulses: Int?
    private var clockRoseAt: UInt64?

    init(avr: OpaquePointer, clock: AVRPin, data: AVRPin, kilograms: Double) {
        self.data = data
        self.kilograms = kilograms
        super.init(avr: avr, watching: clock)
        startConversion()
    }

    /// The 24-bit two's complement reading for `kilograms`.
    static func reading(kilograms: Double) -> UInt32 {
        let counts = (kilograms * countsPerKilogram).rounded()
        let clamped = Int32(min(max(counts, -8_388_608), 8_388_607))
        return UInt32(bitPattern: clamped) & 0xFF_FFFF
    }

    override func pinChanged(high: Bool) {
        guard high else {
            if let rose = clockRoseAt, cycle - rose > cycles(Self.powerDownMicros) { startConversion() }  // woken from power-down
            clockRoseAt = nil
            return
        }
        clockRoseAt = cycle
        guard let count = pulses else { return }  // converting: pulses do nothing
        pulses = count + 1
        if count < 24 {
            data.drive(on: avr, high: reading >> UInt32(23 - count) & 1 == 1)
        } else {
            startConversion()  // the 25th; a 26th or 27th (the next gain) finds it converting
        }
    }

    /// DT high until the next conversion is ready.
    private func startConversion() {
        data.drive(on: avr, high: true)
        pulses = nil
        fire(inMicros: Self.conversionMicros)
    }

    /// The board reset; the chip goes on converting.
    override func boardReset() { startConversion() }

    override func timerFired() {
        reading = Self.reading(kilograms: kilograms)
        pulses = 0
        data.drive(on: avr, high: false)
    }
}
