import CBoardParts

extension AVRPin {
    /// A part outside the chip drives this pin `high` or low: while the pin
    /// is an input it reads that level whatever the sketch writes to its
    /// PORT bit (cbp_pin_drive.c); interrupts follow. Simulation thread only.
    func drive(on avr: OpaquePointer, high: Bool) {
        guard let port = port.asciiValue else { return }
        let mask = UInt8(1) << bit
        cbp_pin_drive(avr, CChar(bitPattern: port), mask, high ? mask : 0)
    }

    /// The part lets go (a button released): the pin reads a resistor's
    /// pull if one is there, else its own pull-up, else what it last read.
    func release(on avr: OpaquePointer) {
        guard let port = port.asciiValue else { return }
        cbp_pin_release(avr, CChar(bitPattern: port), UInt8(1) << bit)
    }

    /// A resistor to 5 V (`high`) or GND pulls the pin: it reads that while no part drives it.
    func pull(on avr: OpaquePointer, high: Bool) {
        guard let port = port.asciiValue else { return }
        let mask = UInt8(1) << bit
        cbp_pin_pull(avr, CChar(bitPattern: port), mask, high ? mask : 0)
    }
}
