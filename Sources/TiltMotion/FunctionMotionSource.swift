import TiltCore

/// A motion source from a pure function of simulated time (µs → reading),
/// for scenarios that need no state of their own.
public struct FunctionMotionSource: MotionSource {
    public let reading: @Sendable (UInt64) -> RawSample

    public init(_ reading: @escaping @Sendable (UInt64) -> RawSample) {
        self.reading = reading
    }

    public func sample(atMicros t: UInt64) -> RawSample { reading(t) }
}
