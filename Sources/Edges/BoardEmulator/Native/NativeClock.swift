/// The native board's time, all in board µs: since the board was made
/// (`lifetime`, what the motion source is asked at) and since power-on
/// (`boardMicros`, what SAMPLE carries), when the next sample falls, how many
/// were taken since power-on, the pace against wall time and a stalled link.
struct NativeClock {
    /// Board time since the board was made.
    private(set) var lifetime: UInt64 = 0
    /// `lifetime` at the last power-on or reset.
    private(set) var boot: UInt64 = 0
    /// The next sample's board time since power-on: an exact multiple of the period.
    private(set) var nextSample: UInt64 = 0
    /// SAMPLE frames taken (sent or dropped) since power-on.
    private(set) var samplesSinceBoot: UInt64 = 0
    /// Keeps board time behind wall time × the pace's factor.
    private(set) var pacer: BoardPacer
    /// Output waits until this wall time (ns): a stalled USB link.
    var stallUntilNanos: UInt64 = 0
    /// Samples per power-on after which the board stops sampling (nil: no limit).
    let sampleLimit: UInt64?

    init(pace: BoardPace, sampleLimit: UInt64?) {
        pacer = BoardPacer(pace: pace)
        self.sampleLimit = sampleLimit
    }

    /// Board time since power-on.
    var boardMicros: UInt64 { lifetime - boot }
    /// The next sample's `lifetime`.
    var nextSampleLifetime: UInt64 { boot + nextSample }
    /// Free-running (no pace): as fast as the host reads.
    var freeRunning: Bool { pacer.pace.factor == nil }
    /// The sample limit was reached since power-on.
    var limitReached: Bool { sampleLimit.map { samplesSinceBoot >= $0 } ?? false }
    /// Output is held at wall time `now` (ns).
    func stalled(at now: UInt64) -> Bool { now < stallUntilNanos }

    /// Power-on or reset: board time restarts, the first sample one `period` on,
    /// the pacer anchored at wall time `now` (ns).
    mutating func powerOn(period: UInt64, wallNanos now: UInt64) {
        boot = lifetime
        nextSample = period
        samplesSinceBoot = 0
        pacer.anchor(boardMicros: lifetime, wallNanos: now)
    }

    /// A new sample period: the next sample falls on its next multiple.
    mutating func reconfigured(period: UInt64) {
        nextSample = (boardMicros / period + 1) * period
    }

    /// The next sample is due: board time moves to it.
    mutating func moveToNextSample() { lifetime = nextSampleLifetime }

    /// Board time moves on to `t` (never back).
    mutating func advance(to t: UInt64) { lifetime = max(lifetime, t) }

    /// The sample at `nextSample` was taken; the next falls one `period` on.
    mutating func sampleTaken(period: UInt64) {
        samplesSinceBoot += 1
        nextSample += period
    }

    /// A new pace from wall time `now` (ns) on.
    mutating func setPace(_ pace: BoardPace, wallNanos now: UInt64) {
        pacer.anchor(boardMicros: lifetime, wallNanos: now, pace: pace)
    }

    /// How far board time may run at wall time `now` (nil: free-running), given the next instant due.
    mutating func allowedLifetime(wallNanos now: UInt64) -> UInt64? {
        pacer.allowedBoardMicros(wallNanos: now, next: nextSampleLifetime)
    }

    /// Wall µs until the next sample may be taken.
    func microsUntilNextSample(wallNanos now: UInt64) -> Int {
        pacer.microsUntil(boardMicros: nextSampleLifetime, wallNanos: now)
    }
}
