import TiltCore

/// A motion that begins when the sensor first asks for it instead of at the
/// board's power-on, so a scenario can be (re)started while a board runs.
public struct StartOnFirstSample<Base: MotionSource>: MotionSource {
    /// The motion being delayed.
    public var base: Base
    private var start: UInt64?

    /// `base`, with its time 0 at the first sample asked for.
    public init(_ base: Base) {
        self.base = base
    }

    /// `base`'s sample at `t` minus the first sample's time.
    public mutating func sample(atMicros t: UInt64) -> RawSample {
        let t0 = start ?? t
        start = t0
        return base.sample(atMicros: t - t0)
    }

    /// `base`'s orientation on the same shifted clock.
    public func orientation(atMicros t: UInt64) -> Quaternion? {
        base.orientation(atMicros: t - min(t, start ?? t))
    }
}
