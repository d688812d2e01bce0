/// A one-pole low-pass on one acceleration axis, in fixed point, whose time
/// constant is in µs of board time, so the same motion gives (nearly) the same
/// output whatever the sample rate.
///
/// Between two samples the input is taken as their mean (the trapezoid rule, a
/// first-order hold: no lag of half a sample interval, which is what made the
/// trajectory depend on the rate); after the newest sample, as that sample
/// (a tick between samples extrapolates with it). Over an interval d with input
/// x the exact response is `y += (x − y)(1 − e^(−d/τ))`; we use
/// the (1,1) Padé form `1 − e^(−d/τ) ≈ 2d / (2τ + d)`, accurate to O((d/τ)³),
/// and split intervals longer than τ/2 into steps of at most τ/2.
public struct LowPassFilter: Hashable, Sendable {
    /// The output, Q32 g.
    public private(set) var value: Int64 = 0
    /// The input being held, Q32 g.
    public private(set) var held: Int64 = 0
    /// The board time the output belongs to.
    public private(set) var time: UInt64 = 0
    let tau: Int64
    var primed = false

    /// - Parameter timeConstantMicros: τ in µs; 0 passes the input through.
    public init(timeConstantMicros: Int) {
        tau = Int64(max(0, timeConstantMicros))
    }

    /// Brings the output forward to `t` with the held input (no-op for t ≤ time).
    public mutating func advance(to t: UInt64) {
        guard primed, t > time else { return }
        var remaining = t - time
        time = t
        if tau == 0 || remaining >= UInt64(tau) &* 16 {
            value = held  // e^-16 ≈ 1e-7: settled
            return
        }
        let maxStep = UInt64(max(1, tau / 2))
        while remaining > 0 {
            let step = Int64(min(remaining, maxStep))
            value += FixedPoint.divRound((held - value) * 2 * step, 2 * tau + step)
            remaining -= UInt64(step)
        }
    }

    /// Takes a new input at time `t`: advances to t with the mean of the held
    /// input and this one, then holds `input` (Q32 g).
    /// The first input primes the filter (the output starts at it, no ramp-up).
    public mutating func take(_ input: Int64, at t: UInt64) {
        if !primed || tau == 0 {
            primed = true
            value = input
            time = max(time, t)
        } else {
            held = (held + input) / 2
            advance(to: t)
        }
        held = input
    }
}
