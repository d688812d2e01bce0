/// A DHT22 (AM2302) temperature and humidity sensor (Wokwi's `wokwi-dht22`)
/// on one of the board's pins, with the module's pull-up on its data line.
///
/// The sketch asks for a reading by holding the line low for at least
/// 0.8 ms and letting go. 30 µs later the sensor answers (AM2302 datasheet,
/// typical times): low 80 µs, high 80 µs, then 40 bits, each low 50 µs and
/// high 26 µs for a 0 or 70 µs for a 1, most significant first: humidity ×10,
/// temperature ×10 (bit 15 the sign), and the low byte of their bytes' sum;
/// then low 50 µs, and it lets go. A request while it answers is ignored, as
/// on the part. Simulation thread only.
final class HumiditySensor: PinWatchingPart {
    /// The shortest start signal the sensor answers (the datasheet's Tbe minimum).
    static let startMicros = 800.0
    /// From the line's release to the sensor's answer (Tgo, typical).
    static let answerDelayMicros = 30.0

    private let pin: AVRPin
    /// Degrees Celsius, −40 to 80 (the sensor's range).
    var celsius: Double
    /// Relative humidity, 0 to 100 %.
    var humidity: Double

    /// When the line last fell with the sensor idle (the sketch's start signal).
    private var fellAt: UInt64?
    /// The answer's 40 bits, and how far along it is (nil: idle).
    private var bits: UInt64 = 0
    private var step: Int?
    /// The sensor itself moves the line: those edges are no start signal.
    private var driving = false

    init(avr: OpaquePointer, pin: AVRPin, celsius: Double, humidity: Double) {
        self.pin = pin
        self.celsius = celsius
        self.humidity = humidity
        super.init(avr: avr, watching: pin)
        pin.pull(on: avr, high: true)  // the module's resistor: the line idles high
    }

    /// The 40 bits a reading sends now: humidity and temperature in tenths
    /// (the temperature's sign in bit 15, not two's complement), then the checksum.
    static func reading(celsius: Double, humidity: Double) -> UInt64 {
        let relative = UInt64(min(max(humidity, 0), 100) * 10 + 0.5)
        let tenths = UInt64(min(abs(celsius), 80) * 10 + 0.5)
        let temperature = tenths | (celsius < 0 && tenths > 0 ? 0x8000 : 0)
        let data = relative << 16 | temperature
        let sum = [24, 16, 8, 0].reduce(0) { $0 + (data >> $1 & 0xFF) } & 0xFF
        return data << 8 | sum
    }

    override func pinChanged(high: Bool) {
        guard !driving, step == nil else { return }
        guard high else {
            fellAt = cycle
            return
        }
        guard let fell = fellAt else { return }
        fellAt = nil
        guard cycle - fell >= cycles(Self.startMicros) else { return }
        bits = Self.reading(celsius: celsius, humidity: humidity)
        if fire(inMicros: Self.answerDelayMicros) { step = 0 }
    }

    /// The board reset: the sensor lets go of the line.
    override func boardReset() {
        step = nil
        fellAt = nil
        setLine(nil)
    }

    /// Steps of an answer: 0 low 80 µs, 1 high 80 µs, then each bit's low
    /// 50 µs and high 26 or 70 µs (2 + 2i, 3 + 2i), 82 low 50 µs, 83 let go.
    override func timerFired() {
        guard let current = step else { return }
        let micros: Double
        switch current {
        case 0: setLine(false); micros = 80
        case 1: setLine(true); micros = 80
        case 2...81 where current % 2 == 0: setLine(false); micros = 50
        case 2...81:
            setLine(true)
            micros = bits >> UInt64(39 - (current - 3) / 2) & 1 == 1 ? 70 : 26
        case 82: setLine(false); micros = 50
        default:
            setLine(nil)
            step = nil
            return
        }
        step = current + 1
        fire(inMicros: micros)
    }

    /// Drives the line high or low, or lets go of it (nil: the pull-up holds it high).
    private func setLine(_ high: Bool?) {
        driving = true
        if let high { pin.drive(on: avr, high: high) } else { pin.release(on: avr) }
        driving = false
    }
}
