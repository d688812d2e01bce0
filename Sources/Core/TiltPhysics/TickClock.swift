/// The physics tick schedule on board time: ticks at t0 + k × period for k ≥ 1,
/// t0 being the first sample's time.
///
/// Any UInt64 time is safe: tick times saturate at `UInt64.max` (the last tick
/// time; once there, every sample stamped `UInt64.max` gets one tick at it) and
/// never wrap or trap.
public struct TickClock: Hashable, Sendable {
    /// After a gap longer than this many ticks (e.g. the board stalled), the
    /// clock skips ahead instead of replaying every missed tick.
    public static let maxCatchUpTicks: UInt64 = 1000

    /// Tick period, µs of board time (`PhysicsSettings.tickMicros`).
    public let periodMicros: UInt64
    /// t0: the first sample's board time, µs.
    public private(set) var startMicros: UInt64 = 0
    /// The index k of the next tick, and its time.
    public private(set) var nextIndex: UInt64 = 1
    /// The next tick's time, µs: t0 + `nextIndex` × period (saturating).
    public private(set) var nextMicros: UInt64 = 0
    /// `start(at:)` has run.
    public private(set) var started = false

    /// A clock not yet started; `periodMicros` must be positive.
    public init(periodMicros: UInt64) {
        precondition(periodMicros > 0)
        self.periodMicros = periodMicros
    }

    /// Starts the schedule at `t` (µs): the first tick falls at `t` + period.
    public mutating func start(at t: UInt64) {
        started = true
        startMicros = t
        nextIndex = 1
        nextMicros = Self.saturating(t, periodMicros)
    }

    /// Skips ticks so at most `maxCatchUpTicks` remain due at or before `t`.
    public mutating func limitCatchUp(before t: UInt64) {
        guard t > nextMicros else { return }
        let due = (t - nextMicros) / periodMicros + 1
        guard due > Self.maxCatchUpTicks else { return }
        let skip = due - Self.maxCatchUpTicks
        // skip × period < t − nextMicros: neither can overflow.
        nextIndex = Self.saturating(nextIndex, skip)
        nextMicros += skip * periodMicros
    }

    /// Moves to the next tick (index + 1, time + period, saturating).
    public mutating func advance() {
        nextIndex = Self.saturating(nextIndex, 1)
        nextMicros = Self.saturating(nextMicros, periodMicros)
    }

    static func saturating(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
