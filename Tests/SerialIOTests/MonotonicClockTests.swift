import SerialIO
import Testing
import TiltCore

@Suite struct MonotonicClockTests {
    /// A time-out given as a Duration becomes whole µs for poll, rounded up so
    /// it never ends early, and never negative (poll's −1 would mean forever).
    @Test func durationsBecomeWholeMicrosRoundedUp() {
        #expect(Duration.microseconds(1500).wholeMicros == 1500)
        #expect(Duration.seconds(2).wholeMicros == 2_000_000)
        #expect(Duration.nanoseconds(1).wholeMicros == 1)
        #expect(Duration.nanoseconds(1001).wholeMicros == 2)
        #expect(Duration.zero.wholeMicros == 0)
        #expect(Duration.milliseconds(-5).wholeMicros == 0)
        #expect(Duration.seconds(Int64.max).wholeMicros == .max)
    }

    @Test func nowNeverGoesBackAndADeadlineLiesAhead() {
        let before = MonotonicClock.now()
        let deadline = MonotonicClock.deadline(after: .seconds(60))
        let after = MonotonicClock.now()
        #expect(before <= after)
        #expect(deadline.micros(since: before) >= 60_000_000)
        #expect(deadline > after)
    }
}
