import TiltCore

/// Follows SAMPLE sequence numbers and 24-bit board times: unwraps time to
/// 64-bit microseconds, counts lost frames, and sorts out frames that come
/// back in sequence (reordered or duplicate), which the decoder drops.
///
/// Rules (docs/protocol.md, SAMPLE and "Reordered and duplicate frames"), with
/// d = (sequence − previous) mod 256 and Δt = (time − previous time) mod 2^24
/// against the last *accepted* sample:
/// - Time direction: Δt ≥ 2^24 − 2^22 means the board time stepped back by at
///   most 2^22 µs (4.19 s, a quarter of the 24-bit span); anything else is a
///   step forward (or none). So forward steps unwrap exactly up to
///   2^24 − 2^22 µs (12.58 s) between received samples; a longer silence cannot
///   be seen in the frames themselves.
/// - Stale: d in 193...255 (1 to 63 behind, under a quarter of the sequence
///   space) with a time not later than the last accepted one. It is *reordered*
///   if its sequence number was counted lost (it is un-counted: `lost` goes
///   down by one), else a *duplicate*. Neither changes the state. A repeat of
///   the last sequence number (d = 0) that no time-based widening turns into a
///   gap is a duplicate too.
/// - Sequence: otherwise n = d frames have elapsed, n − 1 of them lost.
/// - Gaps of 256 or more: when HELLO gave a sample rate r (Hz, non-zero) and
///   the time went forward, Δt also estimates the elapsed frames,
///   e = round(Δt·r/10^6). The tracker takes n = d + 256·k with
///   k = max(0, round((e − d) / 256)), the count congruent to d mod 256 closest
///   to e. It is exact while the estimate is off by less than 128 frames: with
///   a board clock within ±1 % of the sensor's, for gaps up to 12 800 frames,
///   and always within the 12.58 s forward window (e.g. ≥ 256 frames need
///   r ≥ 21 Hz to fit in it). Then n = 0 (a duplicate) only when d = 0 and
///   e < 128.
/// - A longer silence of the *host* (stopped with Ctrl-Z, a laptop asleep):
///   the board went on sending and what the buffers could not hold was
///   dropped, so the first sample after the drop may be any number of 24-bit
///   wraps later. The reader that sees the host's read gap sets
///   `nowEstimate`, the board time a sample sent now would carry (the last
///   sample's time plus the host's gap). While it is more than 2^23 µs ahead of
///   the last sample, a sample that does not continue it (more than 1 s on, or
///   a sequence step its time does not account for within 2 frames) is placed
///   at the unwrapped time nearest the estimate, and its gap counted from
///   that. Exact while the estimate is off by less than 2^23 µs (8.4 s): the
///   frames sent after the drop are at most the buffers' depth old.
/// - A time that steps back while the sequence goes forward (a glitch in the
///   board's clock) is accepted at the previous sample's time: the unwrapped
///   time never goes back and never jumps ahead, and the next samples are
///   measured from the latest time that went forward.
/// - HELLO: the board restarts its sequence at 0 (and may have reset, so its
///   clock may have restarted too): the tracker forgets the previous sample.
///   The first SAMPLE after HELLO counts its sequence number as lost frames
///   (0 expected), and its 24-bit time becomes the new 64-bit time as is, so
///   after a HELLO the host's sample time restarts (consumers treat HELLO as
///   the start of a new session).
/// - Before any HELLO (the host joined a running stream) the first SAMPLE
///   counts nothing and starts the time base the same way; an earlier sequence
///   number arriving after it is a duplicate (it was never counted lost).
public struct SampleTracker: Hashable, Sendable {
    /// How far back (in sequence numbers) a frame counts as stale rather than as
    /// a wrap: 1...63, under a quarter of the 256 sequence numbers.
    public static let staleWindow: UInt8 = 63
    /// How far back (µs) a 24-bit board time counts as a step back rather than a
    /// wrap: 2^22, a quarter of the 24-bit span.
    public static let timeBackWindowMicros: UInt32 = 1 << 22

    @usableFromInline var hasPrevious = false
    @usableFromInline var expectZeroNext = false
    @usableFromInline var previousSequence: UInt8 = 0
    @usableFromInline var previousTime24: UInt32 = 0
    @usableFromInline var timeMicros: UInt64 = 0
    /// Bit i (1...63): sequence number previous − i was counted lost and has not
    /// arrived since, so a late arrival can be told from a duplicate.
    @usableFromInline var missing: UInt64 = 0
    /// The board time (this tracker's unwrapped µs) a sample sent now would
    /// carry, set by a reader after a long gap between its reads; nil: none.
    public var nowEstimate: UInt64?
    /// The longest host silence `nowEstimate` is believed for: 2^40 µs (12.7
    /// days), so the arithmetic stays far from overflow on any host time.
    public static let longestSilenceMicros: UInt64 = 1 << 40
    /// The unwrapped time of the last accepted sample, µs.
    public var latestMicros: UInt64 { timeMicros }
    /// A sample has been accepted since the start, HELLO or rejoin.
    public var hasSample: Bool { hasPrevious }
    /// Sample rate from the last HELLO, Hz; 0 = unknown.
    public var sampleRateHz: UInt32 { rateHz }
    @usableFromInline var rateHz: UInt32 = 0

    /// A tracker that has seen no sample: the next one is accepted and starts the timeline.
    public init() {}

    /// Rates a HELLO may name and be believed: what boards and tiltsim sample
    /// at (an MPU-6050 4…1000 Hz, the native model up to 20 000). Outside it
    /// (0, or a damaged or foreign HELLO's 65 535) the rate counts as unknown:
    /// gaps come from the sequence numbers alone, not widened by a wrong rate
    /// (65 535 Hz read a 1 000-frame gap at 1 kHz as 65 512 lost).
    public static let plausibleRatesHz: ClosedRange<UInt16> = 1...20_000

    /// The board restarted (HELLO): forget the previous sample, expect sequence 0.
    public mutating func restart(sampleRateHz: UInt16) {
        hasPrevious = false
        nowEstimate = nil
        expectZeroNext = true
        missing = 0
        rateHz = Self.plausibleRatesHz.contains(sampleRateHz) ? UInt32(sampleRateHz) : 0
    }

    /// The link was reconnected (a replug): a silence of unknown length, maybe a
    /// board that restarted without the HELLO reaching us. Forget the previous
    /// sample; the next one counts nothing and starts a new time base, as when
    /// joining a running stream. The sample rate is kept.
    public mutating func rejoin() {
        hasPrevious = false
        nowEstimate = nil
        expectZeroNext = false
        missing = 0
    }

    /// What became of one sample.
    public enum Outcome: Hashable, Sendable {
        /// In order: give it to the physics; `lost` frames were missing before it.
        case accepted
        /// Its sequence number already arrived (or predates the join): drop it.
        case duplicate
        /// It arrived after a later frame and fills a gap counted lost before:
        /// drop it (the physics' time has moved on) and count one frame less lost.
        case reordered
    }

    /// Outcome of one sample.
    public struct Step: Hashable, Sendable {
        /// The sample's board time, unwrapped from SAMPLE's 24-bit `t_us`
        /// (accepted), or the last accepted one's.
        public var time: BoardTime
        /// Frames newly counted lost (accepted samples only).
        public var lost: UInt64
        /// Accepted, duplicate or reordered.
        public var outcome: Outcome

        /// A step with every field given.
        @inlinable public init(time: BoardTime, lost: UInt64, outcome: Outcome) {
            self.time = time
            self.lost = lost
            self.outcome = outcome
        }

        /// The sample is a duplicate (to drop).
        @inlinable public var duplicate: Bool { outcome == .duplicate }
    }

    /// Places a SAMPLE by its sequence number and 24-bit board time (µs): unwraps the time, counts frames lost before it, and says whether to use it.
    @inlinable public mutating func track(sequence: UInt8, boardTime: UInt32) -> Step {
        let time24 = boardTime & 0xFF_FFFF
        guard hasPrevious else {
            let lost = expectZeroNext ? UInt64(sequence) : 0
            hasPrevious = true
            expectZeroNext = false
            previousSequence = sequence
            previousTime24 = time24
            timeMicros = UInt64(time24)
            missing = Self.bits(through: lost)
            return Step(time: BoardTime(micros: timeMicros), lost: lost, outcome: .accepted)
        }
        let deltaTime = (time24 &- previousTime24) & 0xFF_FFFF
        var timeWentBack = deltaTime >= (1 << 24) - Self.timeBackWindowMicros
        let step = sequence &- previousSequence
        var elapsedMicros = UInt64(deltaTime)
        let stale = step != 0 && 0 &- step <= Self.staleWindow && timeWentBack  // reordered or repeated: judged below
        if let now = nowEstimate, now > timeMicros &+ (1 << 23), now - timeMicros <= Self.longestSilenceMicros,
           !stale, !continues(step: step, deltaTime: deltaTime) {
            // After the host's long silence: as many 24-bit wraps as its clock says passed.
            let target = now - timeMicros
            let wraps = target + (1 << 23) > UInt64(deltaTime) ? (target + (1 << 23) - UInt64(deltaTime)) >> 24 : 0
            elapsedMicros = UInt64(deltaTime) + wraps << 24
            timeWentBack = false
            nowEstimate = nil
        }
        let behind = 0 &- step  // 1...63 for a stale frame
        if step != 0 && behind <= Self.staleWindow && (timeWentBack || deltaTime == 0) {
            let bit = UInt64(1) << UInt64(behind)
            guard missing & bit != 0 else { return Step(time: BoardTime(micros: timeMicros), lost: 0, outcome: .duplicate) }
            missing &= ~bit
            return Step(time: BoardTime(micros: timeMicros), lost: 0, outcome: .reordered)
        }
        let d = UInt64(step)
        var elapsed = d
        if rateHz != 0 && !timeWentBack {
            let estimate = (elapsedMicros * UInt64(rateHz) + 500_000) / 1_000_000
            if estimate > d { elapsed = d + 256 * ((estimate - d + 128) / 256) }
        }
        if elapsed == 0 { return Step(time: BoardTime(micros: timeMicros), lost: 0, outcome: .duplicate) }
        previousSequence = sequence
        missing = (missing << elapsed) | Self.bits(through: elapsed - 1)
        if !timeWentBack {  // a step back holds the time (and the reference) where it was
            previousTime24 = time24
            timeMicros &+= elapsedMicros
        }
        return Step(time: BoardTime(micros: timeMicros), lost: elapsed - 1, outcome: .accepted)
    }

    /// A sample that carries on from the last one: under a second later, and
    /// (with a known rate) a sequence step its time accounts for within 2 frames.
    @inlinable func continues(step: UInt8, deltaTime: UInt32) -> Bool {
        guard deltaTime < 1_000_000 else { return false }
        guard rateHz != 0 else { return true }
        let frames = Int((UInt64(deltaTime) * UInt64(rateHz) + 500_000) / 1_000_000)
        return abs(frames - Int(step)) <= 2
    }

    /// Bits 1...min(count, 63): the `count` sequence numbers just before the
    /// current one, as far as the window reaches.
    @inlinable static func bits(through count: UInt64) -> UInt64 {
        if count == 0 { return 0 }
        if count >= 63 { return ~UInt64(1) }
        return ((UInt64(1) << count) &- 1) << 1
    }
}
