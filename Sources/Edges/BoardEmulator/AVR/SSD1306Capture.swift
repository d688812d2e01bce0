import CBoardParts

/// Snapshots of the SSD1306 at exact board times, taken by a timer on the
/// core's cycle counter (so a test or a screenshot sees the display as it was
/// at that instant, however far the free-running core has got since).
/// Simulation thread only (callers hold the board's simulation lock).
final class SSD1306Capture {
    private let avr: OpaquePointer
    private let part: OpaquePointer?
    private var timer: OpaquePointer?
    private var reader = SSD1306Reader()
    private var pending: [UInt64] = []        // board µs, ascending
    private var taken: [UInt64: AVRDisplayFrame] = [:]
    private let hook: cbp_timer_hook = { context in
        Unmanaged<SSD1306Capture>.fromOpaque(context!).takeUnretainedValue().fire()
    }

    init(avr: OpaquePointer, part: OpaquePointer?) {
        self.avr = avr
        self.part = part
        timer = cbp_timer_create(avr, hook, Unmanaged.passUnretained(self).toOpaque())
    }

    func detach() {
        cbp_timer_destroy(timer)
        timer = nil
        pending = []
    }

    private var nowMicros: UInt64 { AVRClock.micros(cycle: cbp_avr_cycle(avr), frequency: cbp_avr_frequency(avr)) }

    /// Asks for a snapshot at board time `micros`; false if that time has passed.
    func request(atMicros micros: UInt64) -> Bool {
        guard micros >= nowMicros, timer != nil else { return false }
        if !pending.contains(micros) {
            pending.append(micros)
            pending.sort()
        }
        arm()
        return true
    }

    /// The snapshots taken since the last call.
    func take() -> [UInt64: AVRDisplayFrame] {
        defer { taken = [:] }
        return taken
    }

    private func arm() {
        guard let timer, let first = pending.first else { return }
        cbp_timer_at(timer, first * UInt64(cbp_avr_frequency(avr)) / 1_000_000)
    }

    private func fire() {
        if let timer { _ = cbp_timer_take_reset(timer) }
        let now = nowMicros
        while let first = pending.first, first <= now {
            pending.removeFirst()
            taken[first] = reader.frame(part)
        }
        arm()
    }
}
