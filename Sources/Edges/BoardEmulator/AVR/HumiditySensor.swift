import CBoardParts

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
final class HumiditySensor {
    /// The shortest start signal the sensor answers (the datasheet's Tbe minimum).
    static let startMicros = 800.0
    /// From the line's release to the sensor's answer (Tgo, typical).
    static let answerDelayMicros = 30.0

    private let avr: OpaquePointer
    private let pin: AVRPin
    private let irq: OpaquePointer?
    private var timer: OpaquePointer?
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

    private let hook: cbp_irq_hook = { _, value, context in
        Unmanaged<HumiditySensor>.fromOpaque(context!).takeUnretainedValue().lineChanged(high: value != 0)
    }
    private let timerHook: cbp_timer_hook = { context in
        Unmanaged<HumiditySensor>.fromOpaque(context!).takeUnretainedValue().timerFired()
    }

    init(avr: OpaquePointer, pin: AVRPin, celsius: Double, humidity: Double) {
        self.avr = avr
        self.pin = pin
        self.celsius = celsius
        self.humidity = humidity
        irq = pin.port.asciiValue.flatMap { cbp_ioport_pin_irq(avr, CChar(bitPattern: $0), Int32(pin.bit)) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        if let irq { cbp_irq_register(irq, hook, context) }
        timer = cbp_timer_create(avr, timerHook, context)
        pin.pull(on: avr, high: true)  // the module's resistor: the line idles high
    }

    func detach() {
        if let irq { cbp_irq_unregister(irq, hook, Unmanaged.passUnretained(self).toOpaque()) }
        cbp_timer_destroy(timer)
        timer = nil
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

    private var cycle: UInt64 { cbp_avr_cycle(avr) }
    private func cycles(_ micros: Double) -> UInt64 { UInt64(micros * Double(cbp_avr_frequency(avr)) / 1_000_000) }

    private func lineChanged(high: Bool) {
        guard !driving, step == nil else { return }
        guard high else {
            fellAt = cycle
            return
        }
        guard let fell = fellAt, let timer else { return }
        fellAt = nil
        guard cycle - fell >= cycles(Self.startMicros) else { return }
        bits = Self.reading(celsius: celsius, humidity: humidity)
        step = 0
        cbp_timer_at(timer, cycle + cycles(Self.answerDelayMicros))
    }

    /// Steps of an answer: 0 low 80 µs, 1 high 80 µs, then each bit's low
    /// 50 µs and high 26 or 70 µs (2 + 2i, 3 + 2i), 82 low 50 µs, 83 let go.
    private func timerFired() {
        guard let timer else { return }
        if cbp_timer_take_reset(timer) {  // the board reset: the sensor lets go of the line
            step = nil
            fellAt = nil
            setLine(nil)
            return
        }
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
        cbp_timer_at(timer, cycle + cycles(micros))
    }

    /// Drives the line high or low, or lets go of it (nil: the pull-up holds it high).
    private func setLine(_ high: Bool?) {
        driving = true
        if let high { pin.drive(on: avr, high: high) } else { pin.release(on: avr) }
        driving = false
    }
}
