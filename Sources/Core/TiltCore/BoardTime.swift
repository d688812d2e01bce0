/// A moment on the board's clock: microseconds since the board started (the
/// firmware's `micros()`), unwrapped to 64 bits.
///
/// The physics runs on it, never on the host's clock, so a recording replays
/// bit-identically. It enters the core in one place: `SampleTracker` unwraps
/// SAMPLE's 24-bit `t_us` (docs/protocol.md) into it; text formats without a
/// time stamp use the host's receive time instead. The rule for time values
/// in each layer is in docs/architecture.md, "Time".
public struct BoardTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the board started.
    public var micros: UInt64

    /// The moment `micros` µs after the board started.
    @inlinable public init(micros: UInt64) { self.micros = micros }

    /// The board's start.
    public static let zero = BoardTime(micros: 0)

    /// Earlier on the board's clock.
    @inlinable public static func < (a: BoardTime, b: BoardTime) -> Bool { a.micros < b.micros }

    /// "N µs", as the status lines say it.
    public var description: String { "\(micros) µs" }
}
