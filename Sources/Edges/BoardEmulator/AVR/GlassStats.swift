/// One frame that reached the SSD1306's glass, in board µs (issue 19): the
/// host's view it shows, the sample that view was computed from and when its
/// last glass-changing byte reached the display. `GlassStatsProbe` records them.
public struct GlassFrame: Sendable, Hashable {
    /// The OFFSETS fields of the view shown (the drawer and pins as the board held them then).
    public var viewportX, viewportY, ribbonX, ribbonBottom: UInt16
    /// When the first byte of the host frame that made this view (OFFSETS, or
    /// DRAWER/PIN) was handed to the board's UART.
    public var offsetsStartMicros: UInt64
    /// When its last byte was handed to the UART (the board parses it about one byte time later).
    public var offsetsEndMicros: UInt64
    /// The DATA_RDY time of the newest SAMPLE the board had completely sent
    /// before `offsetsStartMicros`; nil if none was sent, or its burst read
    /// was not seen (no sensor).
    public var sampleMicros: UInt64?
    /// That SAMPLE's sequence number.
    public var sampleSequence: UInt8?
    /// When the frame's last byte that changed the glass had crossed the bus
    /// (its nine SCL periods over): from then on the glass shows this view.
    public var photonMicros: UInt64
    /// Bytes and transactions the SSD1306 had received by then, since power-on
    /// (differences between frames give the bytes a frame took).
    public var displayBytes, displayTransactions: UInt64

    /// Motion to photon, µs: DATA_RDY to the glass; nil without a known sample.
    public var latencyMicros: UInt64? { sampleMicros.map { photonMicros >= $0 ? photonMicros - $0 : 0 } }
}

/// A run's glass frames with their summary: frames/s, motion to photon
/// p50/p95/max (`MotionToPhotonSummary`) and the bus's ceiling for the bytes
/// a frame took (`GlassBusLimit`). What `tiltsim --stats` prints.
public struct GlassStats: Sendable {
    /// Every frame that reached the glass, in order.
    public var frames: [GlassFrame]
    /// The bus clock the firmware set (TWBR, TWPS); nil before the machine ran.
    public var bus: GlassBusLimit?

    /// Frames, in order, and the bus they were sent on.
    public init(frames: [GlassFrame], bus: GlassBusLimit?) {
        self.frames = frames
        self.bus = bus
    }

    /// The frames with a known sample (the others have no motion to photon):
    /// the first of them to the last of them is the span frames/s counts over.
    public var measured: [GlassFrame] { frames.filter { $0.sampleMicros != nil } }

    /// A glass frame whose view the host sent this long or more after the
    /// frame before it reached the glass followed a still view: the glass
    /// waited for the host, not the bus. Judged by that wait, not by the
    /// interval between frames, so a slow bus (100 kHz: a frame every 100 ms
    /// or more, back to back) still counts as moving.
    public static let stillGapMicros: UInt64 = 100_000

    /// Latency distribution and frames/s over the measured frames: intervals
    /// between glass frames over the first to the last one's photon time, and
    /// the intervals not after a still view (`stillGapMicros`) over their sum
    /// (while moving).
    public var summary: MotionToPhotonSummary {
        let m = measured
        let span = m.count >= 2 ? m[m.count - 1].photonMicros - m[0].photonMicros : 0
        var moving = 0, movingSpan: UInt64 = 0
        for (a, b) in zip(m, m.dropFirst()) where b.offsetsStartMicros < a.photonMicros &+ Self.stillGapMicros {
            moving += 1
            movingSpan += b.photonMicros - a.photonMicros
        }
        return MotionToPhotonSummary(latencies: m.compactMap(\.latencyMicros), spanMicros: span,
                                     movingIntervals: moving, movingSpanMicros: movingSpan)
    }

    /// Mean SSD1306 bytes (address and control bytes included) per frame
    /// between the first and the last measured frame, rounded; 0 under two frames.
    public var bytesPerFrame: Int {
        perFrame { $0.displayBytes }
    }

    /// Mean I2C transactions per frame, likewise.
    public var transactionsPerFrame: Int {
        perFrame { $0.displayTransactions }
    }

    /// The bus's frames/s ceiling for that frame size (0 without a bus or frames).
    public var busLimitFramesPerSecond: Double {
        bus?.framesPerSecond(bytes: bytesPerFrame, transactions: transactionsPerFrame) ?? 0
    }

    /// The one line, e.g. "glass 17.2 frames/s (30.1 while moving), bus limit 40.6 (1092 B/frame
    /// in 33 transactions), motion to photon p50 61.0 ms, p95 75.5 ms, max 80.2 ms".
    public var line: String {
        summary.line(bus: bus ?? GlassBusLimit(cpuHz: 16_000_000, twbr: 0), bytesPerFrame: bytesPerFrame,
                     transactionsPerFrame: transactionsPerFrame)
    }

    /// The same as one JSON object (ms with three decimals; null without frames).
    public var json: String {
        let s = summary
        func ms(_ micros: UInt64?) -> String {
            guard let micros else { return "null" }
            return "\(micros / 1000).\(String(micros % 1000).leftPadded(to: 3))"
        }
        func tenths(_ value: Double) -> String {
            let scaled = Int((value * 10).rounded())
            return "\(scaled / 10).\(scaled % 10)"
        }
        return "{\"frames\":\(s.frames),\"framesPerSecond\":\(tenths(s.framesPerSecond)),"
            + "\"movingFramesPerSecond\":\(tenths(s.movingFramesPerSecond)),"
            + "\"p50Ms\":\(ms(s.p50Micros)),\"p95Ms\":\(ms(s.p95Micros)),\"maxMs\":\(ms(s.maxMicros)),"
            + "\"busLimitFramesPerSecond\":\(tenths(busLimitFramesPerSecond)),\"bytesPerFrame\":\(bytesPerFrame),"
            + "\"transactionsPerFrame\":\(transactionsPerFrame),\"twbr\":\(bus.map { "\($0.twbr)" } ?? "null")}"
    }

    private func perFrame(_ count: (GlassFrame) -> UInt64) -> Int {
        let m = measured
        guard m.count >= 2 else { return 0 }
        let total = count(m[m.count - 1]) - count(m[0])
        return Int((Double(total) / Double(m.count - 1)).rounded())
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
