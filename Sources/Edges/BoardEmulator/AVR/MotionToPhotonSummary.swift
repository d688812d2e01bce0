/// Motion to photon over a run, in board time: for each frame that reached the
/// glass, the µs from the sensor sample its view was computed from (the
/// MPU-6050's DATA_RDY) to its last byte reaching the SSD1306 (issue 19).
/// Percentiles are nearest-rank (the smallest latency with at least p % of the
/// frames at or below it), so every figure is a latency that really happened.
public struct MotionToPhotonSummary: Sendable, Hashable {
    /// Frames that reached the glass.
    public var frames: Int
    /// Board µs the frames span (`GlassStats`: the first to the last frame reaching the glass); 0 if under two frames.
    public var spanMicros: UInt64
    /// Median motion to photon, µs; nil without frames.
    public var p50Micros: UInt64?
    /// 95th percentile, µs; nil without frames.
    public var p95Micros: UInt64?
    /// The longest, µs; nil without frames.
    public var maxMicros: UInt64?

    /// The intervals between consecutive frames while the view moved (the
    /// second frame's view sent soon enough after the first reached the
    /// glass: `GlassStats.stillGapMicros`), and their sum, µs.
    public var movingIntervals: Int
    /// The board µs those intervals add up to.
    public var movingSpanMicros: UInt64

    /// Summarises `latencies` (µs, any order) of frames shown over `spanMicros`
    /// of board time, `movingIntervals` of them over `movingSpanMicros` while the view moved.
    public init(latencies: [UInt64], spanMicros: UInt64, movingIntervals: Int = 0, movingSpanMicros: UInt64 = 0) {
        let sorted = latencies.sorted()
        frames = sorted.count
        self.spanMicros = spanMicros
        self.movingIntervals = movingIntervals
        self.movingSpanMicros = movingSpanMicros
        p50Micros = Self.nearestRank(50, of: sorted)
        p95Micros = Self.nearestRank(95, of: sorted)
        maxMicros = sorted.last
    }

    /// Glass frames per simulated second while the view was changing: the
    /// intervals between frames over the span (frames − 1 of them); 0 if that is undefined.
    public var framesPerSecond: Double {
        guard frames >= 2, spanMicros > 0 else { return 0 }
        return Double(frames - 1) * 1_000_000 / Double(spanMicros)
    }

    /// Glass frames per second while the view kept changing: the short
    /// intervals over their sum (a still stretch of the run does not count,
    /// so a whole tour compares with a bus limit); 0 without any.
    public var movingFramesPerSecond: Double {
        guard movingIntervals > 0, movingSpanMicros > 0 else { return 0 }
        return Double(movingIntervals) * 1_000_000 / Double(movingSpanMicros)
    }

    /// The one-line summary `tiltsim --stats` is meant to print, e.g.
    /// "glass 17.2 frames/s (30.1 while moving), bus limit 40.6 (1092 B/frame in 33 transactions),
    /// motion to photon p50 61.0 ms, p95 75.5 ms, max 80.2 ms".
    public func line(bus: GlassBusLimit, bytesPerFrame: Int, transactionsPerFrame: Int) -> String {
        let limit = bus.framesPerSecond(bytes: bytesPerFrame, transactions: transactionsPerFrame)
        var text = "glass \(Self.tenths(framesPerSecond)) frames/s (\(Self.tenths(movingFramesPerSecond)) while moving)"
            + ", bus limit \(Self.tenths(limit))"
            + " (\(bytesPerFrame) B/frame in \(transactionsPerFrame) transactions)"
        if let p50Micros, let p95Micros, let maxMicros {
            text += ", motion to photon p50 \(Self.tenths(Double(p50Micros) / 1000)) ms"
                + ", p95 \(Self.tenths(Double(p95Micros) / 1000)) ms, max \(Self.tenths(Double(maxMicros) / 1000)) ms"
        } else {
            text += ", no frame reached the glass"
        }
        return text
    }

    /// One decimal, rounded half up, without Foundation's locale.
    private static func tenths(_ value: Double) -> String {
        let scaled = Int((value * 10).rounded())
        return "\(scaled / 10).\(scaled % 10)"
    }

    private static func nearestRank(_ percent: Int, of sorted: [UInt64]) -> UInt64? {
        guard !sorted.isEmpty else { return nil }
        let rank = (percent * sorted.count + 99) / 100  // ceil(p/100 × n), at least 1
        return sorted[max(rank, 1) - 1]
    }
}
