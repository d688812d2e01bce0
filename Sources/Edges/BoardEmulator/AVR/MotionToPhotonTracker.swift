import FirmwareCore
import TiltDisplay

/// Works out motion to photon from what crosses the board's edges, whatever
/// the firmware does inside (docs/emulator.md, "Motion to photon"): a value
/// fed events in board time, no simulator, so it is tested on its own.
///
/// - Host bytes go through the firmware's own receiver and `tilt_board`
///   (`NativeFirmware`), so the scene mirrors the board's exactly; each redraw
///   the firmware would owe becomes an expected screen (TiltDisplay's
///   renderer, pixel-identical to the firmware's).
/// - Board bytes go through a second receiver: a SAMPLE wholly off the line
///   (its last byte handed out, plus one byte time) is a sample the host may
///   have used; a HELLO resets the scene as the firmware does when it sends one.
/// - Sensor burst reads (0x3B) queue the DATA_RDY time of the data they read;
///   each SAMPLE sent takes its burst off the queue (matched by its 14 bytes).
/// - A glass check (after each SSD1306 transaction that changed something)
///   compares the glass with the expected screens, newest first; a match is a
///   glass frame, and the older expectations were overtaken (never shown).
struct MotionToPhotonTracker {
    /// Expected screens kept at most; older ones are overtaken views a firmware
    /// would never show (ours latches the newest at each frame's start).
    static let pendingLimit = 64
    /// Sensor bursts kept at most, waiting for their SAMPLE.
    static let burstLimit = 64

    private struct Pending {
        var screen: Screen
        var view: tilt_view
        var startMicros, endMicros: UInt64
        var sample: (micros: UInt64, sequence: UInt8)?
    }

    private struct Burst {
        var micros: UInt64
        var raw: (UInt64, UInt64)
    }

    private let renderer: ScreenRenderer
    private var firmware = NativeFirmware(version: (0, 0, 0))
    /// The firmware's receiver for the host's bytes (`firmware` handles what it passes).
    private var hostInput = NativeInput()
    private var boardRx = tilt_rx()
    private var bursts: [Burst] = []
    /// The sample time of the last burst read (the next read of it is no new burst).
    private var lastBurstMicros: UInt64?
    /// The smallest (sensor's sample time − the SAMPLE's board time) seen in
    /// a sure match: the board stamps each sample with its estimate of the
    /// sensor's time, on a clock that runs with the simulator's from its
    /// reset; the two differ by a steady few hundred µs (0.4–0.55 ms in the tour).
    private var stampLag: Int64?
    /// The last few SAMPLEs sent: when their last byte was off the line, their DATA_RDY and sequence.
    private var sentSamples: [(doneMicros: UInt64, micros: UInt64, sequence: UInt8)] = []
    /// One byte's time on the board's line: the shortest gap seen between two
    /// bytes of one frame (the UART sends a frame back to back). simavr hands a
    /// byte out as it starts, so a frame is off the line one byte time after.
    private var byteMicros: UInt64?
    private var lastBoardByte: (micros: UInt64, delimiter: Bool)?
    private var hostFrameStart: (micros: UInt64, sample: (micros: UInt64, sequence: UInt8)?)?
    private var hostAtFrameStart = true
    private var pending: [Pending] = []
    private var shown: Screen?
    private var scratch = Screen()
    /// Glass frames so far, in order.
    private(set) var frames: [GlassFrame] = []

    init(renderer: ScreenRenderer) {
        self.renderer = renderer
        bursts.reserveCapacity(Self.burstLimit)
        sentSamples.reserveCapacity(4)
        boardDidStart()
    }

    /// Power-on or reset: the firmware starts from setup() (no host, status screen).
    mutating func boardDidStart() {
        firmware.powerOn(rateHz: 100)
        hostInput.reset()
        _ = firmware.takeRedraw()
        tilt_rx_reset(&boardRx)
        bursts.removeAll(keepingCapacity: true)
        lastBurstMicros = nil
        stampLag = nil
        sentSamples.removeAll(keepingCapacity: true)
        lastBoardByte = nil
        hostFrameStart = nil
        hostAtFrameStart = true
        pending.removeAll()
    }

    /// The sensor answered a burst read from 0x3B with `raw` (14 bytes), data sampled at `micros`.
    /// A sample's data read again (seen at 800 kHz and 1 MHz, even after its
    /// SAMPLE went) is not queued twice: that entry would never be sent, and
    /// while the sensor's bytes stay the same (a held tilt, no noise) every
    /// later SAMPLE would match the burst before its own, timing views from a
    /// sample one period older than the host had.
    mutating func sensorBurst(sampledAtMicros micros: UInt64, raw: UnsafeRawBufferPointer) {
        if micros == lastBurstMicros { return }
        lastBurstMicros = micros
        if bursts.count == Self.burstLimit { bursts.removeFirst() }
        bursts.append(Burst(micros: micros, raw: Self.key(raw)))
    }

    /// The burst a SAMPLE carries, and whether it is sure (the only one with
    /// its bytes: bursts before it were read and never sent). Of several (a
    /// held tilt gives byte-identical samples; at 1 kHz up to five SAMPLEs
    /// wait in the TX buffer, and now and then a sample is read and not sent)
    /// the one whose sample time is nearest the SAMPLE's board time plus
    /// `stampLag`, once known; else the oldest. A sure match whose own burst
    /// had gone (a SAMPLE in flight when recording began) names a newer one,
    /// which only makes its lag larger: so the smallest counts.
    private func burstIndex(raw key: (UInt64, UInt64), boardTime: UInt32, sentMicros: UInt64) -> (index: Int, sure: Bool, lag: Int64)? {
        guard let first = bursts.firstIndex(where: { $0.raw == key }) else { return nil }
        // The SAMPLE's board time in full: it went out well within 16.7 s (24 bits) of it.
        let stamp = Int64(sentMicros) - Int64((UInt32(truncatingIfNeeded: sentMicros) &- boardTime) & 0xFF_FFFF)
        func lag(_ i: Int) -> Int64 { Int64(bursts[i].micros) - stamp }
        let sure = !bursts[(first + 1)...].contains { $0.raw == key }
        guard !sure, let known = stampLag else { return (first, sure, lag(first)) }
        var best = first
        for i in (first + 1)..<bursts.count where bursts[i].raw == key && abs(lag(i) - known) < abs(lag(best) - known) { best = i }
        return (best, false, lag(best))
    }

    /// A byte the board sent, handed to the line at `micros`.
    mutating func boardByte(_ byte: UInt8, atMicros micros: UInt64) {
        if let last = lastBoardByte, !last.delimiter, micros > last.micros {
            byteMicros = min(byteMicros ?? .max, micros - last.micros)
        }
        lastBoardByte = (micros, byte == 0)
        var payload: UnsafePointer<UInt8>?
        var length: UInt8 = 0
        guard tilt_rx_push(&boardRx, byte, &payload, &length) == TILT_RX_FRAME, let payload, length > 0 else { return }
        switch payload[0] {
        case UInt8(TILT_SAMPLE.rawValue):
            var sample = tilt_sample()
            guard tilt_decode_sample(payload, length, &sample) else { return }
            let key = withUnsafeBytes(of: &sample.raw) { Self.key($0) }
            guard let (index, sure, lag) = burstIndex(raw: key, boardTime: sample.time_us, sentMicros: micros) else { return }
            if sure { stampLag = min(stampLag ?? lag, lag) }
            if sentSamples.count == 4 { sentSamples.removeFirst() }
            sentSamples.append((micros + (byteMicros ?? 0), bursts[index].micros, sample.seq))
            bursts.removeFirst(index + 1)
        case UInt8(TILT_HELLO.rawValue):
            firmware.helloSent()
            takeRedraw(atMicros: micros)
        default:
            break
        }
    }

    /// A byte the host sent, handed to the board's UART at `micros`.
    mutating func hostByte(_ byte: UInt8, atMicros micros: UInt64) {
        if hostAtFrameStart { hostFrameStart = (micros, newestSample(before: micros)) }
        hostAtFrameStart = byte == 0
        if firmware.hostTimedOut(nowMicros: micros) { takeRedraw(atMicros: micros) }
        withUnsafeBytes(of: byte) { hostInput.receive($0) { firmware.handle($0, nowMicros: micros) { _ in } } }
        takeRedraw(atMicros: micros)
    }

    /// The glass now shows `glass` (1024 bytes, page-major; nil: dark), unchanged since `photonMicros`.
    mutating func glassChecked(_ glass: UnsafeRawBufferPointer?, photonMicros: UInt64, displayBytes: UInt64,
                               displayTransactions: UInt64) {
        guard let glass, glass.count == Screen.byteCount else { return }
        if let shown, Self.equal(shown, glass) { return }
        guard let index = pending.lastIndex(where: { Self.equal($0.screen, glass) }) else { return }
        let p = pending[index]
        frames.append(GlassFrame(
            viewportX: p.view.viewport_x, viewportY: p.view.viewport_y, ribbonX: p.view.ribbon_x,
            ribbonBottom: p.view.ribbon_bottom, offsetsStartMicros: p.startMicros, offsetsEndMicros: p.endMicros,
            sampleMicros: p.sample?.micros, sampleSequence: p.sample?.sequence, photonMicros: photonMicros,
            displayBytes: displayBytes, displayTransactions: displayTransactions))
        shown = p.screen
        pending.removeFirst(index + 1)
    }

    /// A redraw the firmware now owes: the expected screen, unless it looks like the one before.
    private mutating func takeRedraw(atMicros micros: UInt64) {
        guard firmware.redrawDue else { return }
        let redraw = firmware.takeRedraw()
        guard let view = redraw.view else {
            pending.removeAll()  // the status screen: no host view to measure
            return
        }
        renderer.render(viewportX: view.viewport_x, viewportY: view.viewport_y, ribbonX: view.ribbon_x,
                        ribbonBottom: view.ribbon_bottom, scene: redraw.scene, into: &scratch)
        // A redraw that changes no pixel sends no photon: the earlier view keeps its times.
        if let last = pending.last?.screen ?? shown, last == scratch { return }
        if pending.count == Self.pendingLimit { pending.removeFirst() }
        let start = hostFrameStart ?? (micros, newestSample(before: micros))
        pending.append(Pending(screen: scratch, view: view, startMicros: start.micros, endMicros: micros, sample: start.sample))
    }

    /// The newest SAMPLE wholly off the board's line by `micros`: the newest the host can have used.
    private func newestSample(before micros: UInt64) -> (micros: UInt64, sequence: UInt8)? {
        sentSamples.last { $0.doneMicros <= micros }.map { ($0.micros, $0.sequence) }
    }

    private static func key(_ raw: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var a: UInt64 = 0, b: UInt64 = 0
        for i in 0..<min(raw.count, 14) {
            if i < 8 { a = a << 8 | UInt64(raw[i]) } else { b = b << 8 | UInt64(raw[i]) }
        }
        return (a, b)
    }

    private static func equal(_ screen: Screen, _ glass: UnsafeRawBufferPointer) -> Bool {
        screen.bytes.withUnsafeBytes { $0.elementsEqual(glass) }
    }
}
