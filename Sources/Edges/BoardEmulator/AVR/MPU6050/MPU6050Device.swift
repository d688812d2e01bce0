import CBoardParts
import TiltCore

/// The virtual MPU-6050 wired to the AVR: decodes bus events from our TWI
/// model, drives an `MPU6050Model`, answers (ACK, read data) synchronously
/// inside the hook, and drives the INT pin. While an interrupt is enabled a
/// timer wakes the model at each sample (and at the end of each 50 µs INT
/// pulse), so the pin moves on time without bus traffic. Simulation thread only.
final class MPU6050Device {
    var model: MPU6050Model
    var source: any MotionSource
    /// nil: not on the bus (the hook is not registered, so nothing answers).
    let address: UInt8?
    /// Where INT is wired; nil: not connected.
    let interruptPin: AVRPin?
    private let avr: OpaquePointer
    private let twiInput: OpaquePointer
    private let twiOutput: OpaquePointer
    private var timer: OpaquePointer?
    private var pinLevel = false
    /// Called at each read transaction that starts at ACCEL_XOUT_H (0x3B), the
    /// sensor burst a SAMPLE carries, or that starts at INT_STATUS (0x3A) and
    /// reads on into 0x3B (the firmware's one-transaction read), after the
    /// data registers were refreshed (motion to photon, `GlassStatsProbe`); nil:
    /// nobody listens (the usual case).
    var onBurstRead: (() -> Void)?
    /// The read transaction in progress started at INT_STATUS: its second byte starts a burst.
    private var burstAfterStatus = false
    private var selected = false
    /// False while its wires are off (a jumper come loose): nothing answers
    /// at its address and INT stops; plugged back, it starts as at power-on.
    private(set) var connected = true
    private let hook: cbp_irq_hook = { _, value, context in
        Unmanaged<MPU6050Device>.fromOpaque(context!).takeUnretainedValue().bus(cbp_twi_decode(value))
    }
    private let timerHook: cbp_timer_hook = { context in
        Unmanaged<MPU6050Device>.fromOpaque(context!).takeUnretainedValue().timerFired()
    }

    init(avr: OpaquePointer, address: UInt8?, interruptPin: AVRPin? = .d2, whoAmI: UInt8 = 0x68, source: any MotionSource) {
        model = MPU6050Model(whoAmI: whoAmI)
        self.avr = avr
        self.address = address
        self.interruptPin = address == nil ? nil : interruptPin
        self.source = source
        twiInput = cbp_twi0_irq(avr, Int32(CBP_TWI_INPUT))
        twiOutput = cbp_twi0_irq(avr, Int32(CBP_TWI_OUTPUT))
        guard address != nil else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        cbp_irq_register(twiOutput, hook, context)
        if let interruptPin {
            timer = cbp_timer_create(avr, timerHook, context)
            // From power-on INT is driven (push-pull, active high: low while idle), before any sample.
            interruptPin.drive(on: avr, high: false)
        }
    }

    func detach() {
        guard address != nil else { return }
        cbp_irq_unregister(twiOutput, hook, Unmanaged.passUnretained(self).toOpaque())
        cbp_timer_destroy(timer)
        timer = nil
    }

    func powerOn() {
        model.powerOn()
        selected = false
        guard connected else { return }
        updateInterrupt(forceLevel: true)
    }

    /// Takes the module's wires off the board (`connected` false) or puts them
    /// back, which powers it on again: a loose jumper usually takes VCC too.
    func setConnected(_ wired: Bool) {
        guard wired != connected else { return }
        connected = wired
        if wired {
            powerOn()
        } else {
            selected = false
            if let timer { cbp_timer_cancel(timer) }
        }
    }

    private var nowMicros: UInt64 {
        AVRClock.micros(cycle: cbp_avr_cycle(avr), frequency: cbp_avr_frequency(avr))
    }

    private func bus(_ message: cbp_twi_message) {
        let conditions = Int32(message.conditions)
        if conditions & Int32(CBP_TWI_STOP) != 0 { selected = false }
        if conditions & Int32(CBP_TWI_START) != 0 {
            selected = connected && message.address >> 1 == address
            guard selected else { return }
            model.begin(read: message.address & 1 != 0, atMicros: nowMicros, source: &source)
            reply(Int32(CBP_TWI_ACK), message.address, 1)
            if let onBurstRead, message.address & 1 != 0 {
                if model.pointer == MPU6050Model.Register.accelXHigh { onBurstRead() }
                burstAfterStatus = model.pointer == MPU6050Model.Register.intStatus
            }
        }
        guard selected else { return }
        if conditions & Int32(CBP_TWI_WRITE) != 0 {
            reply(Int32(CBP_TWI_ACK), message.address, 1)
            model.write(message.data, atMicros: nowMicros)
        }
        if conditions & Int32(CBP_TWI_READ) != 0 {
            // A read from INT_STATUS that goes on into the data is a burst too (a
            // one-byte INT_STATUS poll is not).
            if burstAfterStatus, model.pointer == MPU6050Model.Register.accelXHigh {
                burstAfterStatus = false
                onBurstRead?()
            }
            reply(Int32(CBP_TWI_READ), message.address, model.read())
        }
        updateInterrupt()
    }

    private func timerFired() {
        guard connected else { return }
        let afterReset = timer.map { cbp_timer_take_reset($0) } ?? false
        model.advance(toMicros: nowMicros, source: &source)
        updateInterrupt(forceLevel: afterReset)
    }

    /// Drives INT as the model says (INT_LEVEL: active low; INT_OPEN: released
    /// when inactive, read as high through the line's pull-up) and sets the
    /// timer for the next moment it may change.
    private func updateInterrupt(forceLevel: Bool = false) {
        guard let pin = interruptPin, let timer else { return }
        let now = nowMicros
        let config = model.registers[Int(MPU6050Model.Register.intPinConfig)]
        let active = model.interruptLineActive(atMicros: now)
        let activeLow = config & 0x80 != 0, openDrain = config & 0x40 != 0
        let level = active ? !activeLow : (openDrain ? true : activeLow)
        if level != pinLevel || forceLevel {
            // INT is a push-pull output (or open drain with the line's pull-up): the pin reads it whatever PORT says.
            if forceLevel && level { pin.drive(on: avr, high: false) }  // the core's reset cleared PIN; make the level felt again
            pin.drive(on: avr, high: level)
            pinLevel = level
        }
        if let next = model.nextInterruptMicros(after: now) {
            cbp_timer_at(timer, next * UInt64(cbp_avr_frequency(avr)) / 1_000_000)
        } else {
            cbp_timer_cancel(timer)
        }
    }

    private func reply(_ conditions: Int32, _ address: UInt8, _ data: UInt8) {
        cbp_irq_raise(twiInput, cbp_twi_encode(UInt8(conditions), address, data))
    }
}

/// Simulated time from the core's cycle counter.
enum AVRClock {
    /// Microseconds since power-on, without overflow for any realistic run.
    static func micros(cycle: UInt64, frequency: UInt32) -> UInt64 {
        let f = UInt64(frequency)
        return cycle / f * 1_000_000 + cycle % f * 1_000_000 / f
    }
}
