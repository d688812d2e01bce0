/// Two of the chip's pins joined by wires (`AVRMachine.joinPins`) that were
/// both outputs at opposite levels: a short circuit on a board, whose pins
/// fight at some 100 mA and can be damaged. The emulator lets each read its
/// own level; this is said so the maker finds the wiring or the sketch at fault.
public struct PinShort: Sendable, Equatable {
    /// The first output of the pair on its net.
    public let first: AVRPin
    /// The other, at the opposite level.
    public let second: AVRPin
    /// When it began, µs of simulated time.
    public let atMicros: UInt64

    /// A short between `first` and `second` from `atMicros` on.
    public init(first: AVRPin, second: AVRPin, atMicros: UInt64) {
        self.first = first
        self.second = second
        self.atMicros = atMicros
    }
}
