/// How fast simulated time runs against the wall clock.
public enum AVRPace: Sendable, Equatable {
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

/// Keeps simulated time at or behind wall time × factor: says how long to wait
/// before the core may run up to a given simulated instant. Falling far behind
/// (a stalled host) re-anchors instead of racing to catch up.
struct AVRPacer {
    /// Debt beyond which the pacer forgives and re-anchors.
    static let maximumDebtNanos: UInt64 = 250_000_000

    private(set) var pace: AVRPace
    private var anchorWallNanos: UInt64 = 0
    private var anchorSimulatedMicros: UInt64 = 0

    init(pace: AVRPace) {
        self.pace = pace
    }

    /// Starts measuring from (`simulatedMicros`, `wallNanos`), optionally with a new pace.
    mutating func anchor(simulatedMicros: UInt64, wallNanos: UInt64, pace: AVRPace? = nil) {
        if let pace { self.pace = pace }
        anchorSimulatedMicros = simulatedMicros
        anchorWallNanos = wallNanos
    }

    /// Nanoseconds to wait before simulated time may reach `target`; 0 = go now.
    mutating func delay(beforeReaching target: UInt64, wallNanos now: UInt64) -> UInt64 {
        guard let factor = pace.factor, target > anchorSimulatedMicros else { return 0 }
        let due = UInt64(Double(target - anchorSimulatedMicros) * 1000 / factor)
        let elapsed = now &- anchorWallNanos
        if due > elapsed { return due - elapsed }
        if elapsed - due > Self.maximumDebtNanos {
            anchor(simulatedMicros: target, wallNanos: now)
        }
        return 0
    }
}
