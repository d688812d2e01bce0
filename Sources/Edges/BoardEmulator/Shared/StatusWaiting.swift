import Foundation

extension NSCondition {
    /// Takes the lock and waits until `check` returns a value or `timeout` (wall
    /// time) passes; returns that value, or nil. `check` runs under the lock,
    /// once now and again on each signal: how both boards serve `waitFor`.
    func waitForValue<Value>(timeout: Duration, _ check: () -> Value?) -> Value? {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        let deadline = Date(timeIntervalSinceNow: seconds)
        lock()
        defer { unlock() }
        while true {
            if let value = check() { return value }
            if !wait(until: deadline) { return check() }
        }
    }
}

extension BoardSpeedReport {
    /// Board time against wall time since `anchor`: board microseconds and
    /// monotonic wall nanoseconds then, and now. An anchor at wall 0 is a
    /// board that never started running (no host opened its port): no time at all.
    init(boardMicros: UInt64, wallNanos: UInt64, since anchor: (wall: UInt64, board: UInt64)) {
        guard anchor.wall != 0 else {
            self.init(simulatedSeconds: 0, wallSeconds: 0)
            return
        }
        self.init(simulatedSeconds: Double(boardMicros &- anchor.board) / 1e6,
                  wallSeconds: Double(wallNanos &- anchor.wall) / 1e9)
    }
}
