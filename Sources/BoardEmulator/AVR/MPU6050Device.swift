import CBoardParts
import TiltCore

/// The virtual MPU-6050 wired to the AVR's TWI bus: decodes bus events from
/// simavr, drives an `MPU6050Model`, and answers (ACK, read data) synchronously
/// inside the hook, as simavr's TWI expects. Simulation thread only.
final class MPU6050Device {
    var model = MPU6050Model()
    var source: any MotionSource
    /// nil: not on the bus (the hook is not registered, so nothing answers).
    let address: UInt8?
    private let avr: OpaquePointer
    private let twiInput: OpaquePointer
    private let twiOutput: OpaquePointer
    private var selected = false
    private let hook: cbp_irq_hook = { _, value, context in
        Unmanaged<MPU6050Device>.fromOpaque(context!).takeUnretainedValue().bus(cbp_twi_decode(value))
    }

    init(avr: OpaquePointer, address: UInt8?, source: any MotionSource) {
        self.avr = avr
        self.address = address
        self.source = source
        twiInput = cbp_twi0_irq(avr, Int32(CBP_TWI_INPUT))
        twiOutput = cbp_twi0_irq(avr, Int32(CBP_TWI_OUTPUT))
        guard address != nil else { return }
        cbp_irq_register(twiOutput, hook, Unmanaged.passUnretained(self).toOpaque())
    }

    func detach() {
        guard address != nil else { return }
        cbp_irq_unregister(twiOutput, hook, Unmanaged.passUnretained(self).toOpaque())
    }

    func powerOn() {
        model.powerOn()
        selected = false
    }

    private var nowMicros: UInt64 {
        AVRClock.micros(cycle: cbp_avr_cycle(avr), frequency: cbp_avr_frequency(avr))
    }

    private func bus(_ message: cbp_twi_message) {
        let conditions = Int32(message.conditions)
        if conditions & Int32(CBP_TWI_STOP) != 0 { selected = false }
        if conditions & Int32(CBP_TWI_START) != 0 {
            selected = message.address >> 1 == address
            guard selected else { return }
            model.begin(read: message.address & 1 != 0, atMicros: nowMicros, source: &source)
            reply(Int32(CBP_TWI_ACK), message.address, 1)
        }
        guard selected else { return }
        if conditions & Int32(CBP_TWI_WRITE) != 0 {
            reply(Int32(CBP_TWI_ACK), message.address, 1)
            model.write(message.data, atMicros: nowMicros)
        }
        if conditions & Int32(CBP_TWI_READ) != 0 {
            reply(Int32(CBP_TWI_READ), message.address, model.read())
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
