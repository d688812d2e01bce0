/// The AVR chips our boards carry, and which of them a firmware image was
/// linked for. Pure: reads bytes, no I/O.
///
/// A .hex has no header and an ELF's e_flags say only the family (the
/// ATmega328P and the ATmega32U4 are both avr5), but avr-gcc starts every
/// image with the chip's interrupt vector table: one 4-byte `jmp` per vector
/// (avr-libc's `_VECTORS_SIZE`), 26 on the ATmega328P, 43 on the ATmega32U4,
/// 57 on the ATmega2560. A sketch run on another chip's core jumps to the
/// wrong vectors, or pushes the wrong size of return address, and crashes
/// within a millisecond; this names the board instead.
public enum AVRChip: String, Sendable, CaseIterable {
    /// The Uno's and Nano's, the ATmega32U4 of the Leonardo and Micro, the Mega's.
    case atmega328p, atmega32u4, atmega2560

    /// The simavr core's name (`AVRMachine.Configuration.mcu`).
    public var mcu: String { rawValue }

    /// As its datasheet writes it: "ATmega32U4".
    public var name: String {
        switch self {
        case .atmega328p: "ATmega328P"
        case .atmega32u4: "ATmega32U4"
        case .atmega2560: "ATmega2560"
        }
    }

    /// Interrupt vectors, each a 4-byte `jmp` in an avr-gcc image.
    public var vectorCount: Int {
        switch self {
        case .atmega328p: 26
        case .atmega32u4: 43
        case .atmega2560: 57
        }
    }

    /// UART `n`'s receive pin (RXDn), or nil for a UART the chip lacks; the
    /// ATmega32U4's `Serial` is its USB, its UART 1 `Serial1`.
    public func receivePin(ofUART n: Int) -> AVRPin? {
        switch (self, n) {
        case (.atmega328p, 0): AVRPin(port: "D", bit: 0)
        case (.atmega32u4, 1): AVRPin(port: "D", bit: 2)
        case (.atmega2560, 0): AVRPin(port: "E", bit: 0)
        case (.atmega2560, 1): AVRPin(port: "D", bit: 2)
        case (.atmega2560, 2): AVRPin(port: "H", bit: 0)
        case (.atmega2560, 3): AVRPin(port: "J", bit: 0)
        default: nil
        }
    }

    /// The boards that carry it, in `ArduinoBoard` order.
    public var boards: [ArduinoBoard] { ArduinoBoard.allCases.filter { $0.chip == self } }

    /// The chip whose `mcu` this is; nil for a core no board of ours carries.
    public init?(mcu: String) { self.init(rawValue: mcu) }

    /// Bytes of an image that hold the longest vector table and the word after it.
    public static let headBytes = (allCases.map(\.vectorCount).max()! + 1) * 4

    /// The chip `flash` (an image from address 0, at least its first
    /// `headBytes`) was linked for: the one whose vector count equals the
    /// image's run of `jmp` words from address 0; the 2560 also when the run
    /// goes on past its table, into the linker's `.trampolines` (`jmp` stubs
    /// for indirect calls, made only for chips with over 128 KiB of flash).
    /// nil when the run matches none (hand-written start-up code, a table of
    /// `rjmp`s, another chip).
    public static func linkedFor(flash: some Collection<UInt8>) -> AVRChip? {
        let count = jumpRun(flash)
        return allCases.first { $0.vectorCount == count } ?? (count > AVRChip.atmega2560.vectorCount ? .atmega2560 : nil)
    }

    /// Consecutive 4-byte `jmp k` instructions from the image's start
    /// (1001 010k kkkk 110k, little-endian words).
    static func jumpRun(_ flash: some Collection<UInt8>) -> Int {
        var count = 0
        var index = flash.startIndex
        while flash.distance(from: index, to: flash.endIndex) >= 4 {
            let low = flash[index], high = flash[flash.index(after: index)]
            guard (UInt16(high) << 8 | UInt16(low)) & 0xFE0E == 0x940C else { break }
            count += 1
            index = flash.index(index, offsetBy: 4)
        }
        return count
    }
}
