import TiltCore

/// A motion that begins when the sensor first asks for it instead of at the
/// board's power-on, so a scenario can be (re)started while a board runs.
public struct StartOnFirstSample<Base: MotionSource>: MotionSource {
    public var base: Base
    private var start: UInt64?

    public init(_ base: Base) {
        self.base = base
    }

    public mutating func sample(atMicros t: UInt64) -> RawSample {
        let t0 = start ?? t
        start = t0
        return base.sample(atMicros: t - t0)
    }
}
