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
final class OneWireBus: PinWatchingPart {
    /// A low this long is a reset: the master holds 480 µs, but
    /// `delayMicroseconds(480)` can come out a few cycles short, and a time
    /// slot is never over 120 µs.
    static let resetMicros = 400.0
    /// From the reset's end to the presence pulse, and the pulse itself.
    static let presenceDelayMicros = 30.0, presenceMicros = 120.0
    /// When in a slot a probe reads the line, and how long it holds a 0.
    static let sampleMicros = 30.0

    private let pin: AVRPin
    var probes: [TemperatureProbe]

    private var fellAt: UInt64?
    private var lineHigh = true
    /// The probes are moving the line: those edges are no master's.
    private var driving = false
    private enum Pending { case none, presence, presenceEnd, slotEnd(listening: [Int]) }
    private var pending = Pending.none

    init(avr: OpaquePointer, pin: AVRPin, probes: [TemperatureProbe]) {
        self.pin = pin
        self.probes = probes
        super.init(avr: avr, watching: pin)
        pin.pull(on: avr, high: true)
    }

    override func pinChanged(high: Bool) {
        lineHigh = high
        guard !driving else { return }
        guard high else {
            fellAt = cycle
            if case .none = pending { slotBegins() }
            return
        }
        guard let fell = fellAt else { return }
        fellAt = nil
        if cycle - fell >= cycles(Self.resetMicros) {
            for index in probes.indices { probes[index].reset() }
            if fire(inMicros: Self.presenceDelayMicros) { pending = .presence }
        }
    }

    /// A master's fall: each probe sends or listens; a 0 sent holds the line.
    private func slotBegins() {
        let now = micros
        var listening: [Int] = [], zero = false, any = false
        for index in probes.indices {
            switch probes[index].bitToSend(atMicros: now) {
            case .some(let bit): any = true; zero = zero || !bit
            case .none: listening.append(index)
            }
        }
        guard any || !listening.isEmpty else { return }
        guard fire(inMicros: Self.sampleMicros) else { return }
        if zero { setLine(low: true) }
        pending = .slotEnd(listening: listening)
    }

    /// The board reset: the probes let go and wait for a 1-Wire reset.
    override func boardReset() {
        pending = .none
        fellAt = nil
        setLine(low: false)
    }

    override func timerFired() {
        switch pending {
        case .none:
            break
        case .presence:
            setLine(low: true)
            pending = .presenceEnd
            fire(inMicros: Self.presenceMicros)
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
