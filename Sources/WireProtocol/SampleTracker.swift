/// Follows SAMPLE sequence numbers and 24-bit board times: unwraps time to
/// 64-bit microseconds and counts lost and duplicated frames.
///
/// Rules (docs/protocol.md, SAMPLE):
/// - Time: each sample's 64-bit time is the previous one plus the 24-bit
///   difference modulo 2^24. This is exact as long as consecutive received
///   samples are less than 2^24 µs (16.78 s) apart; a longer silence (an
///   unplugged cable) cannot be seen in the frames themselves.
/// - Sequence: d = (sequence − previous) mod 256. Without a known sample rate,
///   n = d frames have elapsed: d = 0 is a duplicate, d > 1 means d − 1 lost.
/// - Gaps of 256 or more: when HELLO gave a sample rate r (Hz, non-zero), the
///   time difference Δt also estimates the elapsed frames, e = round(Δt·r/10^6).
///   The decoder takes n = d + 256·k with k = max(0, round((e − d) / 256)), the
///   count congruent to d mod 256 closest to e. It is exact while the estimate
///   is off by less than 128 frames: with a board clock within ±1 % of the
///   sensor's, for gaps up to 12 800 frames, and always within the 16.78 s the
///   24-bit time can span (e.g. ≥ 256 frames need r ≥ 16 Hz to fit in it).
///   Then n = 0 (a duplicate) only when d = 0 and e < 128.
/// - HELLO: the board restarts its sequence at 0 (and may have reset, so its
///   clock may have restarted too): the tracker forgets the previous sample.
///   The first SAMPLE after HELLO counts its sequence number as lost frames
///   (0 expected), and its 24-bit time becomes the new 64-bit time as is, so
///   after a HELLO the host's sample time restarts (consumers treat HELLO as
///   the start of a new session).
/// - Before any HELLO (the host joined a running stream) the first SAMPLE
///   counts nothing and starts the time base the same way.
public struct SampleTracker: Hashable, Sendable {
    @usableFromInline var hasPrevious = false
    @usableFromInline var expectZeroNext = false
    @usableFromInline var previousSequence: UInt8 = 0
    @usableFromInline var previousTime24: UInt32 = 0
    @usableFromInline var timeMicros: UInt64 = 0
    /// Sample rate from the last HELLO, Hz; 0 = unknown.
    public var sampleRateHz: UInt32 { rateHz }
    @usableFromInline var rateHz: UInt32 = 0

    public init() {}

    /// The board restarted (HELLO): forget the previous sample, expect sequence 0.
    public mutating func restart(sampleRateHz: UInt16) {
        hasPrevious = false
        expectZeroNext = true
        rateHz = UInt32(sampleRateHz)
    }

    /// The link was reconnected (a replug): a silence of unknown length, maybe a
    /// board that restarted without the HELLO reaching us. Forget the previous
    /// sample; the next one counts nothing and starts a new time base, as when
    /// joining a running stream. The sample rate is kept.
    public mutating func rejoin() {
        hasPrevious = false
        expectZeroNext = false
    }

    /// Outcome of one sample.
    public struct Step: Hashable, Sendable {
        public var timeMicros: UInt64
        public var lost: UInt64
        public var duplicate: Bool

        @inlinable public init(timeMicros: UInt64, lost: UInt64, duplicate: Bool) {
            self.timeMicros = timeMicros
            self.lost = lost
            self.duplicate = duplicate
        }
    }

    @inlinable public mutating func track(sequence: UInt8, boardTime: UInt32) -> Step {
        let time24 = boardTime & 0xFF_FFFF
        guard hasPrevious else {
            let lost = expectZeroNext ? UInt64(sequence) : 0
            hasPrevious = true
            expectZeroNext = false
            previousSequence = sequence
            previousTime24 = time24
            timeMicros = UInt64(time24)
            return Step(timeMicros: timeMicros, lost: lost, duplicate: false)
        }
        let deltaTime = (time24 &- previousTime24) & 0xFF_FFFF
        let d = UInt64(sequence &- previousSequence)
        var elapsed = d
        if rateHz != 0 {
            let estimate = (UInt64(deltaTime) * UInt64(rateHz) + 500_000) / 1_000_000
            if estimate > d { elapsed = d + 256 * ((estimate - d + 128) / 256) }
        }
        previousSequence = sequence
        previousTime24 = time24
        timeMicros &+= UInt64(deltaTime)
        return Step(timeMicros: timeMicros, lost: elapsed == 0 ? 0 : elapsed - 1, duplicate: elapsed == 0)
    }
}
