import TiltCore

/// A motion that starts at a given board time: asked at `t`, it plays its
/// base at `t - start` (its first pose before then).
public struct ShiftedMotion<Base: MotionSource>: MotionSource {
    /// The motion being shifted.
    public var base: Base
    /// Simulated µs at which `base`'s time 0 happens.
    public let startMicros: UInt64

    /// `base`, started at `micros` simulated µs.
    public init(_ base: Base, startingAt micros: UInt64) {
        self.base = base
        startMicros = micros
    }

    /// `base`'s sample at `t - startMicros` (its sample at 0 before `startMicros`).
    public mutating func sample(atMicros t: UInt64) -> RawSample {
        base.sample(atMicros: t > startMicros ? t - startMicros : 0)
    }

    /// `base`'s orientation on the same shifted clock.
    public func orientation(atMicros t: UInt64) -> Quaternion? {
        base.orientation(atMicros: t > startMicros ? t - startMicros : 0)
    }
}
