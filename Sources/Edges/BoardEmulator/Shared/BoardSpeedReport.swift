/// Simulated seconds per wall second over a stretch of running.
public struct BoardSpeedReport: Sendable, Equatable {
    /// Simulated time run in the stretch, seconds.
    public var simulatedSeconds: Double
    /// Wall-clock time the stretch took, seconds.
    public var wallSeconds: Double
    /// Simulated seconds per wall second (1 = real time); 0 before any wall time passed.
    public var ratio: Double { wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0 }
}
