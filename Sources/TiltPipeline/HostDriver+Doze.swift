import TiltCore

extension HostDriver {
    /// Host time until which reading can wait: the next tick's board time mapped
    /// to host time with the smallest arrival offset seen lately (the least
    /// delayed sample, so late or batched chunks never push it later), minus the
    /// margin, and no later than `dozeLimitMicros` after the last read (so a
    /// doze is always followed by a read, however many come in a row).
    func dozeDeadline(at now: HostTime) -> HostTime? {
        guard let margin = configuration.dozeMarginMicros, let next = session.nextTick,
              let offset = arrivalOffset.minimum, let limit = dozeLimitMicros else { return nil }
        let due = Int64(bitPattern: next.micros) &+ offset
        let deadline = due &- Int64(clamping: margin)
        guard deadline > 0 else { return nil }
        return min(HostTime(micros: UInt64(deadline)), lastRead + limit)
    }

    /// The longest doze that lets at most `dozeBufferBytes` pile up, at the
    /// fastest byte rate known: the one measured on this link, or what HELLO
    /// announced (a board may send faster than it says, and a pty faster than
    /// any baud rate). nil until a rate was measured: no doze before that.
    var dozeLimitMicros: UInt64? {
        guard let measured = byteRate.bytesPerSecond else { return nil }
        let announced = session.hello.map { UInt64($0.sampleRateHz) * Self.sampleWireBytes } ?? 0
        let bytesPerSecond = max(measured, announced, 1)
        return configuration.dozeBufferBytes * 1_000_000 / bytesPerSecond
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
