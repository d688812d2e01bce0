/// A signed fixed-point number in Q15.16: `raw / 65536`.
///
/// Every quantity the core decodes uses this one format: acceleration in g,
/// rotation rate in °/s, temperature in °C. Q15.16 holds the widest of them
/// exactly (±16 g and ±2000 °/s at full scale) with room for sums.
public struct Fixed: Hashable, Comparable, Sendable {
    /// Bits after the binary point (16).
    public static let fractionBits = 16
    /// 1.0 (raw 65536).
    public static let one = Fixed(raw: 1 << 16)
    /// 0.0.
    public static let zero = Fixed(raw: 0)

    /// The value times 65536, as stored.
    public var raw: Int32

    /// The number `raw / 65536`.
    @inlinable public init(raw: Int32) { self.raw = raw }

    /// A whole number of units.
    @inlinable public init(integer: Int32) { self.raw = integer << 16 }

    /// Compares the values.
    /// The exact difference; traps on overflow like Int32.
    /// The negated value; traps for the most negative raw value, like Int32.
    /// The exact sum; traps on overflow like Int32.
    @inlinable public static func < (a: Fixed, b: Fixed) -> Bool { a.raw < b.raw }
    @inlinable public static prefix func - (a: Fixed) -> Fixed { Fixed(raw: -a.raw) }
    @inlinable public static func + (a: Fixed, b: Fixed) -> Fixed { Fixed(raw: a.raw + b.raw) }
    @inlinable public static func - (a: Fixed, b: Fixed) -> Fixed { Fixed(raw: a.raw - b.raw) }
}

extension Fixed: CustomStringConvertible {
    /// Decimal text with four places, computed in integers (no floating point).
    public var description: String {
        let magnitude = Int64(raw).magnitude
        let whole = magnitude >> 16
        let tenThousandths = ((magnitude & 0xFFFF) * 10_000 + 0x8000) >> 16
        let (w, f) = tenThousandths == 10_000 ? (whole + 1, UInt64(0)) : (whole, tenThousandths)
        let fraction = String(f)
        let padded = String(repeating: "0", count: 4 - fraction.count) + fraction
        return (raw < 0 ? "-" : "") + "\(w).\(padded)"
    }
}
