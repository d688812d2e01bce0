import CBoardParts

/// DS18B20 thermometers (Wokwi's `wokwi-ds18b20`) on one of the board's
/// pins, with the 4.7 kΩ pull-up every 1-Wire line has: the line is the
/// wired AND of the master and every probe.
///
/// Timing (Maxim's datasheet, typical): the master holding the line low
/// 480 µs is a reset (taken from 400 µs), and 30 µs after it lets go each probe holds the
/// line low for 120 µs (its presence). Every other fall starts a time slot:
/// a probe sending a 0 holds the line from the fall for 30 µs; a probe
/// listening reads the line 30 µs after the fall (the master's write 1 lets
/// go within 15 µs, its write 0 holds 60). Simulation thread only.
final class OneWireBus {
    /// A low this long is a reset: the master holds 480 µs, but
    /// `delayMicroseconds(480)` can come out a few cycles short, and a time
    /// slot is never over 120 µs.
    static let resetMicros = 400.0
    /// From the reset's end to the presence pulse, and the pulse itself.
    static let presenceDelayMicros = 30.0, presenceMicros = 120.0
    /// When in a slot a probe reads the line, and how long it holds a 0.
    static let sampleMicros = 30.0

    private let avr: OpaquePointer
    private let pin: AVRPin
    private let irq: OpaquePointer?
    private var timer: OpaquePointer?
    var probes: [TemperatureProbe]

    private var fellAt: UInt64?
    private var lineHigh = true
    /// The probes are moving the line: those edges are no master's.
    private var driving = false
    private enum Pending { case none, presence, presenceEnd, slotEnd(listening: [Int]) }
    private var pending = Pending.none

    private let hook: cbp_irq_hook = { _, value, context in
        Unmanaged<OneWireBus>.fromOpaque(context!).takeUnretainedValue().lineChanged(high: value != 0)
    }
    private let timerHook: cbp_timer_hook = { context in
        Unmanaged<OneWireBus>.fromOpaque(context!).takeUnretainedValue().timerFired()
    }

    init(avr: OpaquePointer, pin: AVRPin, probes: [TemperatureProbe]) {
        self.avr = avr
        self.pin = pin
        self.probes = probes
        irq = pin.port.asciiValue.flatMap { cbp_ioport_pin_irq(avr, CChar(bitPattern: $0), Int32(pin.bit)) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        if let irq { cbp_irq_register(irq, hook, context) }
        timer = cbp_timer_create(avr, timerHook, context)
        pin.pull(on: avr, high: true)
    }

    func detach() {
        if let irq { cbp_irq_unregister(irq, hook, Unmanaged.passUnretained(self).toOpaque()) }
        cbp_timer_destroy(timer)
        timer = nil
    }

    private var cycle: UInt64 { cbp_avr_cycle(avr) }
    private var micros: UInt64 { cycle * 1_000_000 / UInt64(cbp_avr_frequency(avr)) }
    private func cycles(_ micros: Double) -> UInt64 { UInt64(micros * Double(cbp_avr_frequency(avr)) / 1_000_000) }

    private func lineChanged(high: Bool) {
        lineHigh = high
        guard !driving, let timer else { return }
        guard high else {
            fellAt = cycle
            if case .none = pending { slotBegins(timer) }
            return
        }
        guard let fell = fellAt else { return }
        fellAt = nil
        if cycle - fell >= cycles(Self.resetMicros) {
            for index in probes.indices { probes[index].reset() }
            pending = .presence
            cbp_timer_at(timer, cycle + cycles(Self.presenceDelayMicros))
        }
    }

    /// A master's fall: each probe sends or listens; a 0 sent holds the line.
    private func slotBegins(_ timer: OpaquePointer) {
        let now = micros
        var listening: [Int] = [], zero = false, any = false
        for index in probes.indices {
            switch probes[index].bitToSend(atMicros: now) {
            case .some(let bit): any = true; zero = zero || !bit
            case .none: listening.append(index)
            }
        }
        guard any || !listening.isEmpty else { return }
        if zero { setLine(low: true) }
        pending = .slotEnd(listening: listening)
        cbp_timer_at(timer, cycle + cycles(Self.sampleMicros))
    }

    private func timerFired() {
        guard let timer else { return }
        if cbp_timer_take_reset(timer) {  // the board reset: the probes let go and wait for a 1-Wire reset
            pending = .none
            fellAt = nil
            setLine(low: false)
            return
        }
        switch pending {
        case .none:
            break
        case .presence:
            setLine(low: true)
            pending = .presenceEnd
            cbp_timer_at(timer, cycle + cycles(Self.presenceMicros))
        case .presenceEnd:
            setLine(low: false)
            pending = .none
        case .slotEnd(let listening):
            let now = micros, line = lineHigh
            setLine(low: false)
            pending = .none
            for index in probes.indices {
                probes[index].slotEnded(line: listening.contains(index) ? line : true, atMicros: now)
            }
        }
    }

    private func setLine(low: Bool) {
        driving = true
        if low { pin.drive(on: avr, high: false) } else { pin.release(on: avr) }
        driving = false
    }
}
