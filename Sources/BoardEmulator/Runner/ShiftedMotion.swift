import TiltCore

/// A motion that starts at a given board time: asked at `t`, it plays its
/// base at `t - start` (its first pose before then).
public struct ShiftedMotion<Base: MotionSource>: MotionSource {
    public var base: Base
    public let startMicros: UInt64

    public init(_ base: Base, startingAt micros: UInt64) {
        self.base = base
        startMicros = micros
    }

    public mutating func sample(atMicros t: UInt64) -> RawSample {
        base.sample(atMicros: t > startMicros ? t - startMicros : 0)
    }
}
