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
    /// How many times the net's outputs came to odds (1: once).
    public let times: Int
    /// When the last of them began.
    public let lastMicros: UInt64

    /// A short between `first` and `second` from `atMicros` on, `times` times in all, the last from `lastMicros`.
    public init(first: AVRPin, second: AVRPin, atMicros: UInt64, times: Int = 1, lastMicros: UInt64? = nil) {
        self.first = first
        self.second = second
        self.atMicros = atMicros
        self.times = times
        self.lastMicros = lastMicros ?? atMicros
    }
}
