import TiltCore

/// A motion source from a pure function of simulated time (µs → reading),
/// for scenarios that need no state of their own.
public struct FunctionMotionSource: MotionSource {
    /// The reading at a board time, µs since the motion started.
    public let reading: @Sendable (UInt64) -> RawSample

    /// A source that asks `reading` at every sample time (µs).
    public init(_ reading: @escaping @Sendable (UInt64) -> RawSample) {
        self.reading = reading
    }

    /// `reading(t)`.
    public func sample(atMicros t: UInt64) -> RawSample { reading(t) }

    /// None: the DMP derives the tilt from the readings.
    public func orientation(atMicros t: UInt64) -> Quaternion? { nil }
}
