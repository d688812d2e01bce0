import TiltCore

/// What a `NativeBoard` does wrong on purpose, so a host's error handling can be
/// tested against exact counts (`FaultCounters`).
///
/// Rates are per byte sent, seeded so a run is repeatable. Text form (tiltsim
/// `--faults`): `flip=1e-3,drop=1e-3,insert=1e-3,garbage=1e-4,seed=1`, optional
/// `from=SECONDS,until=SECONDS` (board lifetime) to limit when faults happen.
public struct FaultSpec: Hashable, Sendable, CustomStringConvertible {
    /// Flip one random bit of a byte.
    public var flipRate: Double = 0
    /// Drop a byte.
    public var dropRate: Double = 0
    /// Insert one random byte before a byte.
    public var insertRate: Double = 0
    /// Insert a run of 2…`garbageMaxLength` random bytes before a byte.
    public var garbageRate: Double = 0
    /// Longest garbage run, bytes (at least 2).
    public var garbageMaxLength: Int = 32
    /// Seed of the fault generator (SplitMix64): the same seed gives the same faults.
    public var seed: UInt64 = 1
    /// Faults only touch frames created in [from, until) of board lifetime, µs.
    public var activeFromMicros: UInt64 = 0
    /// End of the window, board lifetime µs (exclusive); `.max`: no end.
    public var activeUntilMicros: UInt64 = .max

    /// Faults at the given rates (each a probability per byte, 0 to 0.5); `garbageMaxLength` below 2 counts as 2.
    public init(flipRate: Double = 0, dropRate: Double = 0, insertRate: Double = 0, garbageRate: Double = 0,
                garbageMaxLength: Int = 32, seed: UInt64 = 1,
                activeFromMicros: UInt64 = 0, activeUntilMicros: UInt64 = .max) {
        self.flipRate = flipRate
        self.dropRate = dropRate
        self.insertRate = insertRate
        self.garbageRate = garbageRate
        self.garbageMaxLength = max(2, garbageMaxLength)
        self.seed = seed
        self.activeFromMicros = activeFromMicros
        self.activeUntilMicros = activeUntilMicros
    }

    /// No faults.
    public static let none = FaultSpec()

    /// True when some rate is above zero.
    public var isActive: Bool { flipRate > 0 || dropRate > 0 || insertRate > 0 || garbageRate > 0 }

    /// Why a `--faults` text is not valid: one line naming the fix.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The message, e.g. "fault rate flip=2 is per byte: use 0 to 0.5".
        public let description: String
    }

    /// Parses `key=value` pairs separated by commas (see the type's documentation).
    public init(parsing text: String) throws(ParseError) {
        self.init()
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
            guard parts.count == 2, let value = Double(parts[1]), value.isFinite, value >= 0 else {
                throw ParseError(description: "fault \(quoted(item)): write key=number, e.g. flip=1e-3,drop=1e-3,insert=1e-3,garbage=1e-4,seed=1")
            }
            func rate() throws(ParseError) -> Double {
                guard value <= 0.5 else { throw ParseError(description: "fault rate \(shortened(parts[0]))=\(shortened(parts[1])) is per byte: use 0 to 0.5") }
                return value
            }
            switch parts[0] {
            case "flip": flipRate = try rate()
            case "drop": dropRate = try rate()
            case "insert": insertRate = try rate()
            case "garbage": garbageRate = try rate()
            case "garbage-max":
                guard value >= 2, value <= 1024 else { throw ParseError(description: "garbage-max must be 2 to 1024 bytes") }
                garbageMaxLength = Int(value)
            case "seed":
                guard value <= 9.0e15 else { throw ParseError(description: "seed must be below 9e15") }
                seed = UInt64(value)
            case "from": activeFromMicros = UInt64(min(value, 1e12) * 1e6)
            case "until": activeUntilMicros = UInt64(min(value, 1e12) * 1e6)
            default:
                throw ParseError(description: "unknown fault \(quoted(parts[0])): use flip, drop, insert, garbage, garbage-max, seed, from, until")
            }
        }
        guard activeUntilMicros > activeFromMicros else {
            throw ParseError(description: "fault window from=\(seconds(activeFromMicros)) until=\(seconds(activeUntilMicros)) is empty: make until later than from")
        }
    }

    /// The text form, as `init(parsing:)` reads it (without the window).
    public var description: String {
        "flip=\(flipRate),drop=\(dropRate),insert=\(insertRate),garbage=\(garbageRate),seed=\(seed)"
    }
}

/// Board-lifetime microseconds as the seconds a user wrote, e.g. 5 or 0.25.
private func seconds(_ micros: UInt64) -> String {
    let whole = Double(micros) / 1e6
    return whole == whole.rounded() ? String(Int64(whole)) : String(whole)
}

extension Substring {
    var trimmingSpaces: String {
        String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

/// Exactly what a `FaultInjector` did. A frame is *hit* when a fault touched its
/// bytes, its delimiter, or the delimiter before it (which merges the two runs),
/// so the host decodes exactly the frames sent minus the frames hit.
public struct FaultCounters: Hashable, Sendable {
    /// Bytes whose one random bit was flipped.
    public var bitFlips: UInt64 = 0
    /// Bytes left out of the stream (each hits its frame, or two frames when it was a delimiter).
    public var droppedBytes: UInt64 = 0
    /// Single random bytes inserted (not counting garbage runs).
    public var insertedBytes: UInt64 = 0
    /// Garbage runs inserted.
    public var garbageRuns: UInt64 = 0
    /// Bytes in all garbage runs together.
    public var garbageBytes: UInt64 = 0
    /// Zero bytes that faults put on the wire (a flip to 0x00, inserted 0x00):
    /// each can split a run in two, so the host may count that many extra errors.
    public var zerosCreated: UInt64 = 0
    /// Frames of any type hit: their own bytes, their delimiter, or what came
    /// right before them (a damaged delimiter, inserted bytes) was touched.
    public var framesHit: UInt64 = 0
    /// SAMPLE frames hit.
    public var samplesHit: UInt64 = 0
    /// SAMPLE frames whose own bytes (all but the delimiter) were changed, or had
    /// bytes inserted between them: no decoder can recover these (short of a CRC
    /// false accept, 1 in 65536).
    public var samplesBroken: UInt64 = 0
    /// SAMPLE frames whose own bytes and delimiter arrived whole: a decoder that
    /// recovers frames from damaged runs decodes every one of these.
    public var samplesWhole: UInt64 = 0
    /// `NativeBoard.stall` calls.
    public var stalls: UInt64 = 0
    /// All counts zero.
    public init() {}

    /// Fault events (each flip, drop, insertion, garbage run).
    public var events: UInt64 { bitFlips + droppedBytes + insertedBytes + garbageRuns }
}
