import CBoardParts

/// A part outside the chip that watches one of the board's pins and acts at
/// times of its own (an HC-SR04, a DHT22, an HX711, a 1-Wire line): the
/// pin's changes come to `pinChanged(high:)`, its timer to `timerFired()`,
/// and a board reset the timer saw to `boardReset()`. The pin irq and the
/// timer (cbp_timer.c) are registered here once, for all of them.
/// Simulation thread only.
class PinWatchingPart {
    let avr: OpaquePointer
    private let irq: OpaquePointer?
    private var timer: OpaquePointer?

    private let hook: cbp_irq_hook = { _, value, context in
        Unmanaged<PinWatchingPart>.fromOpaque(context!).takeUnretainedValue().pinChanged(high: value != 0)
    }
    private let timerHook: cbp_timer_hook = { context in
        Unmanaged<PinWatchingPart>.fromOpaque(context!).takeUnretainedValue().fired()
    }

    init(avr: OpaquePointer, watching pin: AVRPin) {
        self.avr = avr
        irq = pin.port.asciiValue.flatMap { cbp_ioport_pin_irq(avr, CChar(bitPattern: $0), Int32(pin.bit)) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        if let irq { cbp_irq_register(irq, hook, context) }
        timer = cbp_timer_create(avr, timerHook, context)
    }

    /// Unhooks the part (the machine is going away).
    func detach() {
        if let irq { cbp_irq_unregister(irq, hook, Unmanaged.passUnretained(self).toOpaque()) }
        cbp_timer_destroy(timer)
        timer = nil
    }

    /// The chip's cycle count now.
    var cycle: UInt64 { cbp_avr_cycle(avr) }
    /// Board microseconds now.
    var micros: UInt64 { cycle * 1_000_000 / UInt64(cbp_avr_frequency(avr)) }
    /// Cycles in `micros` microseconds at the chip's clock.
    func cycles(_ micros: Double) -> UInt64 { UInt64(micros * Double(cbp_avr_frequency(avr)) / 1_000_000) }

    /// `timerFired()` comes `micros` from now (replacing one pending); false once detached.
    @discardableResult
    func fire(inMicros micros: Double) -> Bool {
        guard let timer else { return false }
        cbp_timer_at(timer, cycle + cycles(micros))
        return true
    }

    private func fired() {
        guard let timer else { return }
        if cbp_timer_take_reset(timer) { boardReset() } else { timerFired() }
    }

    /// The watched pin changed (the sketch's or another part's doing).
    func pinChanged(high: Bool) {}
    /// The time asked for with `fire(inMicros:)` has come.
    func timerFired() {}
    /// The board reset while the timer was pending: the part goes on, its exchange with the sketch does not.
    func boardReset() {}
}
