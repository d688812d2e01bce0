/// How fast board time runs against the wall clock.
public enum BoardPace: Sendable, Equatable {
    /// One simulated second per wall second (a real board).
    case realTime
    /// `factor` simulated seconds per wall second (0.5 = half speed); factor > 0.
    case speed(Double)
    /// As fast as the host allows.
    case freeRunning

    /// Simulated seconds per wall second this pace aims at; nil when unbounded.
    public var factor: Double? {
        switch self {
        case .realTime: 1
        case .speed(let factor): factor > 0 ? factor : 1
        case .freeRunning: nil
        }
    }
}
