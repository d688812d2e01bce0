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
}
