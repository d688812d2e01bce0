import CBoardParts
import TiltDisplay

/// Taps an `AVRMachine`'s edges for motion to photon and feeds a
/// `MotionToPhotonTracker`: the UART bytes both ways (`AVRUART`), the
/// sensor's burst reads (`MPU6050Device.onBurstRead`) and the end of every
/// I2C transaction addressed to the SSD1306 (a hook on the TWI bus), where the
/// glass is compared only if a byte since the last check changed it.
/// Exists only while recording: with `--stats` off nothing is hooked.
/// Simulation thread only.
final class GlassStatsProbe {
    private(set) var tracker: MotionToPhotonTracker
    private let avr: OpaquePointer
    private let display: OpaquePointer
    private let displayAddress: UInt8
    private let sensor: MPU6050Device
    private let twiOutput: OpaquePointer
    private var displayOpen = false
    private var checkedChange: UInt64 = .max
    private var state = cbp_ssd1306_state()
    private let hook: cbp_irq_hook = { _, value, context in
        Unmanaged<GlassStatsProbe>.fromOpaque(context!).takeUnretainedValue().bus(cbp_twi_decode(value))
    }

    init(avr: OpaquePointer, display: OpaquePointer, displayAddress: UInt8, sensor: MPU6050Device, renderer: ScreenRenderer) {
        tracker = MotionToPhotonTracker(renderer: renderer)
        self.avr = avr
        self.display = display
        self.displayAddress = displayAddress
        self.sensor = sensor
        twiOutput = cbp_twi0_irq(avr, Int32(CBP_TWI_OUTPUT))
        cbp_irq_register(twiOutput, hook, Unmanaged.passUnretained(self).toOpaque())
        sensor.onBurstRead = { [unowned self] in self.burstRead() }
    }

    /// Unhooks; call before the core is destroyed.
    func detach() {
        cbp_irq_unregister(twiOutput, hook, Unmanaged.passUnretained(self).toOpaque())
        sensor.onBurstRead = nil
    }

    private var nowMicros: UInt64 { AVRClock.micros(cycle: cbp_avr_cycle(avr), frequency: cbp_avr_frequency(avr)) }

    /// The core restarted (reset or power cycle).
    func boardDidStart() {
        tracker.boardDidStart()
        displayOpen = false
    }

    func hostByte(_ byte: UInt8) { tracker.hostByte(byte, atMicros: nowMicros) }

    func boardByte(_ byte: UInt8) { tracker.boardByte(byte, atMicros: nowMicros) }

    private func burstRead() {
        guard let sampled = sensor.model.newestSampleMicros else { return }
        let first = Int(MPU6050Model.Register.accelXHigh)
        sensor.model.registers.withUnsafeBytes { registers in
            tracker.sensorBurst(sampledAtMicros: sampled, raw: UnsafeRawBufferPointer(rebasing: registers[first..<(first + 14)]))
        }
    }

    /// The bus clock of the display's last transaction: a firmware may run the
    /// display faster than the sensor (`I2C_CLOCK_HZ`), switching TWBR between them.
    private(set) var displayBus: GlassBusLimit?

    private func bus(_ message: cbp_twi_message) {
        let conditions = Int32(message.conditions)
        if conditions & Int32(CBP_TWI_STOP | CBP_TWI_START) != 0 {
            if displayOpen { check() }
            displayOpen = conditions & Int32(CBP_TWI_START) != 0 && message.address >> 1 == displayAddress
                && message.address & 1 == 0
        }
    }

    /// After a transaction to the display: the glass, if anything changed it since the last look.
    private func check() {
        let changed = cbp_ssd1306_last_change_cycle(display)
        guard changed != checkedChange else { return }
        checkedChange = changed
        cbp_ssd1306_peek(display, &state)
        var transactions: UInt64 = 0
        let bytes = cbp_ssd1306_traffic(display, &transactions)
        let rate = cbp_twi_bit_rate(avr)
        let bus = GlassBusLimit(cpuHz: UInt64(cbp_avr_frequency(avr)), twbr: UInt8(rate & 0xFF), prescalerBits: UInt8((rate >> 8) & 3))
        displayBus = bus
        // The byte was delivered at the start of its nine SCL periods.
        let photon = AVRClock.micros(cycle: changed + 9 * bus.sclCycles, frequency: cbp_avr_frequency(avr))
        let registers = SSD1306Registers(state)
        withUnsafeBytes(of: &state.gddram) { gddram in
            if !registers.isLit {
                tracker.glassChecked(nil, photonMicros: photon, displayBytes: bytes, displayTransactions: transactions)
            } else if registers.showsRAMAsStored || registers.showsRAMSqueezed {
                // A 128 × 32 module shows every other row of the same 128 × 64
                // picture: its frames are measured in the controller's RAM.
                tracker.glassChecked(gddram, photonMicros: photon, displayBytes: bytes, displayTransactions: transactions)
            } else {
                // Start line, offset, remaps: the glass differs from GDDRAM (rare; allocates).
                let glass = SSD1306Glass.screen(gddram: Array(gddram), registers: registers)
                glass.bytes.withUnsafeBytes {
                    tracker.glassChecked($0, photonMicros: photon, displayBytes: bytes, displayTransactions: transactions)
                }
            }
        }
    }
}
