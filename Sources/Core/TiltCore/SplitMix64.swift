/// SplitMix64 (Steele, Lea & Flood, 2014): a tiny seeded generator, so anything
/// "random" (sensor noise, injected faults, generated test cases) repeats run to run.
///
/// The output sequence for a seed is fixed: seeded tests and fixtures depend on it.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    /// The generator's whole state; the next output mixes `state + golden gamma`.
    public var state: UInt64

    /// A generator whose first output is the mix of `seed + 0x9E37_79B9_7F4A_7C15`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1), from the top 53 bits.
    public mutating func unitInterval() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A uniform draw in (0, 1): never 0, so it is safe under `log`.
    public mutating func openUnitInterval() -> Double {
        Double(next() >> 11 | 1) * 0x1p-53
    }

    /// True with probability `p`. No draw when `p` is 0 or less, so a zero rate
    /// leaves the sequence untouched.
    public mutating func chance(_ p: Double) -> Bool {
        guard p > 0 else { return false }
        return unitInterval() < p
    }

    /// The low byte of the next output.
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }

    /// A draw in `range` by modulo (slightly biased for huge ranges; fine for test cases).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
