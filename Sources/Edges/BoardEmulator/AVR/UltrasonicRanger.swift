/// An HC-SR04 ultrasonic ranger (Wokwi's `wokwi-hc-sr04`) on two of the
/// board's pins, or one (TRIG and ECHO joined, as NewPing's one-pin mode
/// wires it). A TRIG pulse of at least 8 µs starts a measurement: when
/// TRIG falls the module sends its burst (eight 40 kHz cycles, 200 µs), then
/// ECHO is high for the sound's round trip to the obstacle, 58.3 µs a
/// centimetre at 343 m/s, so `pulseIn(ECHO, HIGH) / 58` is the distance in
/// cm. A trigger while a measurement runs is ignored, as on the module.
/// Simulation thread only.
final class UltrasonicRanger: PinWatchingPart {
    /// Microseconds of echo a centimetre of distance: there and back at 343 m/s.
    static let microsPerCentimetre = 2 / 0.0343
    /// The burst before ECHO rises.
    static let burstMicros: UInt64 = 200
    /// The shortest TRIG pulse that starts a measurement. The datasheet asks
    /// for 10 µs, but `delayMicroseconds(10)` between two port writes (NewPing)
    /// gives 8.9 µs at 16 MHz, and modules take it.
    static let triggerMicros: UInt64 = 8

    private enum Phase { case idle, burst, echo }

    private let echo: AVRPin
    private var phase = Phase.idle
    private var triggerRoseAt: UInt64?
    /// ECHO is being driven: with TRIG on the same pin (the 3-wire use
    /// NewPing offers) that edge is the module's own, not a new trigger.
    private var drivingEcho = false
    /// The obstacle's distance, in cm.
    var centimetres: Double

    init(avr: OpaquePointer, trigger: AVRPin, echo: AVRPin, centimetres: Double) {
        self.echo = echo
        self.centimetres = centimetres
        super.init(avr: avr, watching: trigger)
        setEcho(high: false)
    }

    override func pinChanged(high: Bool) {
        guard !drivingEcho else { return }
        if high {
            if triggerRoseAt == nil { triggerRoseAt = cycle }
            return
        }
        guard let rose = triggerRoseAt else { return }
        triggerRoseAt = nil
        guard phase == .idle, cycle - rose >= cycles(Double(Self.triggerMicros)) else { return }
        if fire(inMicros: Double(Self.burstMicros)) { phase = .burst }
    }

    /// The board reset: the module goes on, its measurement with it.
    override func boardReset() {
        phase = .idle
        triggerRoseAt = nil
        setEcho(high: false)
    }

    override func timerFired() {
        switch phase {
        case .burst:
            phase = .echo
            setEcho(high: true)
            fire(inMicros: centimetres * Self.microsPerCentimetre)
        case .echo:
            phase = .idle
            setEcho(high: false)
        case .idle:
            break
        }
    }

    private func setEcho(high: Bool) {
        drivingEcho = true
        echo.drive(on: avr, high: high)
        drivingEcho = false
    }
}
