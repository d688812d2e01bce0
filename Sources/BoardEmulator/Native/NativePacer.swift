/// Board lifetime against wall time × factor: how far the board may run now, and
/// how long until it may reach a given instant. Falling more than 250 ms behind
/// (a stalled machine) re-anchors instead of bursting to catch up.
struct NativePacer: Sendable {
    static let maximumDebtMicros: UInt64 = 250_000

    private(set) var pace: AVRPace
    private var anchorWallNanos: UInt64 = 0
    private var anchorLife: UInt64 = 0

    init(pace: AVRPace) { self.pace = pace }

    mutating func anchor(life: UInt64, wallNanos: UInt64, pace: AVRPace? = nil) {
        if let pace { self.pace = pace }
        anchorLife = life
        anchorWallNanos = wallNanos
    }

    /// The lifetime wall time allows now; nil when free-running. `next` is the
    /// next instant the board wants to reach (used to forgive a large debt).
    mutating func allowedLife(wallNanos now: UInt64, next: UInt64) -> UInt64? {
        guard let factor = pace.factor else { return nil }
        var allowed = anchorLife + UInt64(Double(now &- anchorWallNanos) / 1000 * factor)
        if allowed > next, allowed - next > UInt64(Double(Self.maximumDebtMicros) * factor) {
            anchor(life: next, wallNanos: now)
            allowed = next
        }
        return allowed
    }

    /// Wall µs until the board may reach `life` (0 if it may now).
    func microsUntil(life: UInt64, wallNanos now: UInt64) -> Int {
        guard let factor = pace.factor, life > anchorLife else { return 0 }
        let dueNanos = anchorWallNanos + UInt64(Double(life - anchorLife) * 1000 / factor)
        return dueNanos > now ? Int((dueNanos - now + 999) / 1000) : 0
    }
}
