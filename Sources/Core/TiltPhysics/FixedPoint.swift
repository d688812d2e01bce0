/// Fixed-point helpers for smooth mode. Formats (docs/physics.md):
/// - Q32: `Int64` with 32 fraction bits (1.0 = 2^32): offsets, gains, filter state.
/// - Q16: `Int64` with 16 fraction bits: tilt in g, ribbon points, pixels.
enum FixedPoint {
    static let q32One: Int64 = 1 << 32
    static let q16One: Int64 = 1 << 16

    /// A configuration value in Q`bits`, rounded to nearest. Configuration time only.
    static func fixed(_ value: Double, bits: Int) -> Int64 {
        let scaled = value * Double(Int64(1) << bits)
        return Int64((scaled + (scaled < 0 ? -0.5 : 0.5)).rounded(.towardZero))
    }

    /// `(a × b) >> shift`, rounded to nearest (ties away from zero), computed on
    /// the full 128-bit product so no intermediate overflows. The result must fit.
    static func mulShift(_ a: Int64, _ b: Int64, _ shift: Int) -> Int64 {
        let negative = (a < 0) != (b < 0)
        let product = a.magnitude.multipliedFullWidth(by: b.magnitude)
        let half: UInt64 = 1 << (shift - 1)
        let (low, carry) = product.low.addingReportingOverflow(half)
        let high = product.high &+ (carry ? 1 : 0)
        let magnitude = (high << (64 - shift)) | (low >> shift)
        return negative ? -Int64(magnitude) : Int64(magnitude)
    }

    /// `a / b` rounded to nearest (ties away from zero); b > 0.
    static func divRound(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b)
    }

    /// The integer square root, floor(√n).
    static func squareRoot(_ n: UInt64) -> UInt64 {
        if n < 2 { return n }
        var x = n
        var y = (x + 1) / 2
        while y < x {
            x = y
            y = (x + n / x) / 2
        }
        return x
    }

    /// sine and cosine of an angle in degrees, by Taylor series after reducing
    /// to ±45° (plain arithmetic, no libm). Configuration time only.
    static func sineCosine(degrees: Double) -> (sin: Double, cos: Double) {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        let quadrant = Int((d + 45) / 90) % 4
        let r = (d - Double(quadrant) * 90) * (Double.pi / 180)  // |r| <= π/4
        var s = 0.0, c = 0.0, term = r, cterm = 1.0
        for n in 0..<12 {
            s += term
            c += cterm
            term *= -r * r / Double((2 * n + 2) * (2 * n + 3))
            cterm *= -r * r / Double((2 * n + 1) * (2 * n + 2))
        }
        switch quadrant {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }
}
