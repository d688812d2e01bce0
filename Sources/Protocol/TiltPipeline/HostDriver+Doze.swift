import TiltCore
import WireProtocol

extension HostDriver {
    /// Host time until which reading can wait: the next tick's board time mapped
    /// to host time with the smallest arrival offset seen lately (the least
    /// delayed sample, so late or batched chunks never push it later), minus the
    /// margin and how late dozes have been ending on this machine, and no later
    /// than `dozeLimitMicros` after the last read (so a doze is always followed
    /// by a read, however many come in a row).
    func dozeDeadline(at now: HostTime) -> HostTime? {
        guard let configured = configuration.dozeMarginMicros, let next = session.nextTick,
              let offset = arrivalOffset.minimum else { return nil }
        let limit = dozeLimitMicros
        let late = wakeUpLateness.micros
        // At most half a sample period: a 200 µs margin at 10 kHz would wake
        // the loop for two more samples before the one that completes the tick.
        let margin = min(configured &+ late, (samplePeriodMicros ?? .max) / 2)
        let due = Int64(bitPattern: next.micros) &+ offset
        let deadline = due &- Int64(clamping: margin)
        guard deadline > 0 else { return nil }
        let tickDoze = min(HostTime(micros: UInt64(deadline)), lastRead + limit)
        // Frame sync: READY and the view that answers it cannot wait for the tick.
        guard let watch = frameSyncDeadline(at: now, offset: offset) else { return tickDoze }
        return min(tickDoze, HostTime(micros: watch.micros > late ? watch.micros - late : 0))
    }

    /// With frame sync, the latest host time the port may be left unread
    /// (`HostSession.viewWatch`); nil without. "Read every arrival" is `now`
    /// up to 1 kHz and once a millisecond above (a millisecond's samples at a
    /// time are fresh enough for a view, and cost a wake-up, not ten).
    func frameSyncDeadline(at now: HostTime, offset: Int64) -> HostTime? {
        let everyArrival = (samplePeriodMicros ?? .max) < 1_000 ? max(now, lastRead + 1_000) : now
        func expecting(_ next: HostTime?) -> HostTime {
            guard let next, next.micros > configuration.readyMarginMicros else { return everyArrival }
            return max(everyArrival, HostTime(micros: next.micros - configuration.readyMarginMicros))
        }
        switch session.viewWatch {
        case .off:
            return nil
        case .now:
            return everyArrival
        case .expected(let next):
            return expecting(next)
        case .latch(let latch, let next):
            // The last read whose view still reaches the board before the
            // latch: when a sample stamped at the latch would arrive, less a
            // SAMPLE's and an OFFSETS' time on the line and a margin.
            let wake = Int64(bitPattern: latch.micros) &+ offset &- Int64(clamping: chaseMarginMicros)
            if wake > Int64(bitPattern: now.micros) { return HostTime(micros: UInt64(wake)) }
            return expecting(next)
        }
    }

    /// How long before a latch the chase read must happen: a SAMPLE's and an
    /// OFFSETS' bytes at the line's rate (the sample's own trip is in the
    /// arrival offset, the view's is not), and half a millisecond to spare.
    var chaseMarginMicros: UInt64 {
        (Self.sampleWireBytes + UInt64(OffsetsWire.capacity)) * 1_000_000 / max(configuration.lineBytesPerSecond, 1) + 500
    }

    /// A doze shorter than this saves no wake-up, as no sample would arrive
    /// during it: one sample period, and at most 1 ms.
    var shortestDozeMicros: UInt64 { min(1_000, samplePeriodMicros ?? 1_000) }

    /// The period the board announced in HELLO, µs; nil before HELLO and for
    /// text formats (which announce nothing).
    var samplePeriodMicros: UInt64? {
        guard let rate = session.hello?.sampleRateHz, rate > 0 else { return nil }
        return 1_000_000 / UInt64(rate)
    }

    /// The longest doze that lets at most `dozeBufferBytes` pile up, at the
    /// fastest byte rate known: the one measured on this link, or what HELLO
    /// announced (a board may send faster than it says, and a pty faster than
    /// any baud rate). Before the first measurement (the link's first 100 ms)
    /// the line's byte rate stands in for the measured one: a UART cannot send
    /// faster than its baud rate allows, and the links that can (a pty, USB
    /// CDC) make the writer wait instead of losing bytes.
    var dozeLimitMicros: UInt64 {
        let announced = session.hello.map { UInt64($0.sampleRateHz) * Self.sampleWireBytes } ?? 0
        let measured = byteRate.bytesPerSecond ?? configuration.lineBytesPerSecond
        let bytesPerSecond = max(measured, announced, 1)
        return configuration.dozeBufferBytes * 1_000_000 / bytesPerSecond
    }
}

/// How late a doze's wake-up comes on this machine, µs: the latest lately,
/// each doze forgetting an eighth of it. A timer wakes a sleeping process
/// late by the system's timer slack (50 µs for a normal task on Linux) and
/// by however long an idle CPU takes to wake; on the 2-vCPU VM of
/// docs/perf/host.md dozes ended 190 µs late at the median at 100 Hz (280 at
/// the p90), past the 200 µs margin, so a tick's sample often arrived while
/// the loop still slept. The peak, not a mean: ending a doze early costs a
/// longer final wait, ending it late costs the tick its latency.
struct WakeUpLateness: Sendable, Equatable {
    private(set) var micros: UInt64 = 0

    mutating func add(_ late: UInt64) {
        micros = max(late, micros - (micros + 7) / 8)
    }
}

/// The byte rate of a link over the last one or two windows (the larger), so
/// a doze is sized by what the device really sends.
struct ByteRateMeter: Sendable, Equatable {
    let windowMicros: UInt64
    var windowStart: HostTime?
    var bytes: UInt64 = 0
    var current: UInt64?
    var previous: UInt64?

    init(windowMicros: UInt64) { self.windowMicros = windowMicros }

    mutating func add(_ count: Int, at now: HostTime) {
        guard let start = windowStart else {
            windowStart = now
            bytes = UInt64(count)
            return
        }
        bytes &+= UInt64(count)
        let span = now.micros(since: start)
        if span >= windowMicros {
            previous = current
            current = bytes &* 1_000_000 / span
            windowStart = now
            bytes = 0
        }
    }

    /// Bytes per second; nil before a whole window was measured.
    var bytesPerSecond: UInt64? {
        switch (current, previous) {
        case let (c?, p?): max(c, p)
        case let (c?, nil): c
        default: nil
        }
    }
}

/// The minimum of values added over the current and the previous window
/// (so it follows slow drift and forgets old values within two windows).
struct WindowedMinimum: Sendable, Equatable {
    let windowMicros: UInt64
    var current: Int64?
    var previous: Int64?
    var windowStart = HostTime.zero

    init(windowMicros: UInt64) { self.windowMicros = windowMicros }

    mutating func add(_ value: Int64, at now: HostTime) {
        if now.micros(since: windowStart) >= windowMicros {
            previous = current
            current = nil
            windowStart = now
        }
        current = min(current ?? value, value)
    }

    var minimum: Int64? {
        switch (current, previous) {
        case let (c?, p?): min(c, p)
        case let (c?, nil): c
        case let (nil, p?): p
        default: nil
        }
    }
}
