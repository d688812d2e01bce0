import TiltCore
import TiltDisplay
import TiltPhysics
import WireProtocol

/// The host's whole job as a pure state machine: bytes from the board in,
/// OFFSETS frames and events out. No I/O, no clock: the shell passes the host
/// receive time with each chunk (used only to stamp text-format samples, which
/// carry no board time) and decides itself when to give up waiting.
///
/// - Bytes: `StreamReader` detects the format and turns them into frames and
///   timed samples; the session acts on those.
/// - Physics runs on board time (binary protocol) or receive time (text).
/// - HELLO (a board reset, a replug, an answer to HOST_HELLO) restarts the
///   *link*: the decoder's sequence tracking, the OFFSETS sequence (back to 0),
///   the sensor ranges and sample rate. It keeps the *physics*: offsets,
///   velocities, ribbon state and the tick clock carry on, the board's new time
///   base being joined to the old one at the last sample's time (no jump, no
///   burst of catch-up ticks). `linkRestarted()` does the same for a replug
///   without HELLO.
/// - Steady state allocates nothing: per chunk, per frame, per tick.
public struct HostSession: Sendable {
    /// The host's protocol version (sent in HOST_HELLO, checked against HELLO).
    public static let protocolVersion = WireFormat.version

    /// The physics: integrator, drawer, ribbon detector, at board time.
    public private(set) var engine: TiltEngine
    /// False: each sample is reported as `.sample`, as received, and goes no
    /// further: no ticks, no OFFSETS, no frame sync (`calibrate` measures the
    /// sensor; nobody looks at the map).
    public let runsPhysics: Bool
    /// The host's content tile id, compared with HELLO's (nil: don't check).
    public let hostTileID: UInt16?
    /// The stream's front end: format detection, the readers, their counters.
    public private(set) var stream: StreamReader
    /// The last HELLO the session acted on.
    public private(set) var hello: HelloFrame?
    /// The pins, oldest first (the host owns them; the board gets them slot by slot).
    public private(set) var pins: PinBoard
    /// What the board was told to draw: OFFSETS (the last one sent: a tick's
    /// or a frame-sync view), DRAWER and PIN as sent.
    public private(set) var scene = BoardScene()
    /// Set after a version mismatch: input is ignored from then on.
    public private(set) var halted = false
    /// Bytes, frames, samples, ticks, losses and errors so far.
    public private(set) var counters = HostCounters()
    /// The last sample given to the physics, as received (raw counts, board
    /// time): what the live view's sensor panel shows.
    public private(set) var lastSample: TimedSample?

    /// Holds `stream`'s place while `receive` runs it (never fed).
    static let streamStandIn = StreamReader(format: .binaryProtocol, detectionLimit: 1)
    var offsetsSequence: UInt8 = 0
    /// Engine time = board time + timeOffset (wrapping), re-chosen after a link restart.
    var timeOffset: UInt64 = 0
    var rejoinPending = false
    var sawSample = false
    var sceneSync = SceneSync()
    /// SYNC 1 went to the board since its last HELLO (smooth mode, binary protocol).
    var frameSyncAsked = false
    /// The board said READY and has not been sent a view since.
    var viewWanted = false
    /// The board time (low 24 bits, the SAMPLE clock) at which the board said
    /// it takes its next view: until a sample from then on arrives, each
    /// sample that moves the map sends a fresher view (the board latches the
    /// newest it has). Nil after an idle READY, which takes the first view.
    var latchTime: UInt32?
    /// The last non-idle READY: its latch (board µs, 24 bits) and when it was read.
    var lastReady: (latch: UInt32, readAt: HostTime)?
    /// Board µs between the last two latches READY announced: the board's frame
    /// cadence while it draws (nil until two in a row, and after idle).
    var latchInterval: UInt32?
    /// A READY came since the last HELLO (the board does frame sync).
    var lastReadyAny = false
    /// The host time of the chunk being digested.
    var chunkTime = HostTime.zero

    /// - Parameters:
    ///   - engine: the physics, with its settings, geometry and axis mapping.
    ///   - hostTileID: the tile the host renders (`ContentTile.id`), or nil.
    ///   - format: skip detection (e.g. CSV-free replays of a known stream).
    ///   - detectionLimit: bytes examined before detection gives up.
    ///   - pins: the pins kept from earlier runs (the newest `PinBoard.capacity`).
    ///   - runsPhysics: false reports samples instead of running the physics.
    public init(engine: TiltEngine, hostTileID: UInt16?, format: StreamFormat? = nil, detectionLimit: Int = 2048, pins: [Pin] = [],
                runsPhysics: Bool = true) {
        self.engine = engine
        self.runsPhysics = runsPhysics
        self.hostTileID = hostTileID
        stream = StreamReader(format: format, detectionLimit: detectionLimit)
        self.pins = PinBoard(pins)
    }

    /// The detected format; nil while undecided.
    public var format: StreamFormat? { stream.format }

    /// The last sample's time on the physics' timeline, µs (the engine's, which
    /// it never lets go back).
    var lastEngineTime: UInt64 { engine.lastSampleTime }

    /// Digests one chunk received at host time `receivedAt`, calling `handle`
    /// for each event in order. Ticks come out as soon as the sample that
    /// completes them is read.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, at receivedAt: HostTime, _ handle: (HostEvent) -> Void) {
        if halted || bytes.isEmpty { return }
        chunkTime = receivedAt
        // Moved out while it calls back into the session, so its buffers stay uniquely owned (no copy).
        var stream = Self.streamStandIn
        swap(&stream, &self.stream)
        stream.receive(bytes, at: receivedAt) { event in
            if !halted { apply(event, handle) }
        }
        swap(&stream, &self.stream)
        counters.decoder = self.stream.decoderCounters
        counters.text = self.stream.textCounters
    }

    /// Array convenience (tests, tools).
    public mutating func receive(_ bytes: [UInt8], at receivedAt: HostTime, _ handle: (HostEvent) -> Void) {
        bytes.withUnsafeBytes { receive($0, at: receivedAt, handle) }
    }

    /// Board time from the last sample to the next tick, µs (nil before the first
    /// sample or while a rejoin is pending): no sample stamped earlier than that
    /// can complete a tick, so a shell may let such samples queue up unread.
    public var microsUntilNextTick: UInt64? {
        guard let next = nextTick?.micros else { return nil }
        return next > lastEngineTime ? next - lastEngineTime : 0
    }

    /// The next tick's time on the physics' timeline (board time joined across
    /// resets); nil before the first sample or while a rejoin is pending.
    public var nextTick: BoardTime? {
        guard sawSample, !rejoinPending, !halted, engine.clock.started else { return nil }
        return BoardTime(micros: engine.clock.nextMicros)
    }

    /// When the shell must read the port for frame sync (`HostDriver`'s doze
    /// asks; `ViewWatch` says what each answer means).
    public var viewWatch: ViewWatch {
        guard frameSyncAsked, lastReadyAny else { return .off }  // older firmware never says READY
        if viewWanted && latchTime == nil { return .now }  // an idle board draws a view the moment it arrives
        var next: HostTime?
        if let last = lastReady, let interval = latchInterval { next = last.readAt + UInt64(interval) }
        if let latch = latchTime, let raw = lastSample?.time.micros {
            // The latch on the physics' timeline: the last sample's time plus
            // the 24-bit distance to it (READY and SAMPLE share the clock).
            let ahead = (latch &- UInt32(truncatingIfNeeded: raw)) & 0xFF_FFFF
            let signed = ahead >= 0x80_0000 ? Int64(ahead) - 0x100_0000 : Int64(ahead)
            return .latch(BoardTime(micros: UInt64(bitPattern: Int64(bitPattern: lastEngineTime) &+ signed)), then: next)
        }
        return next.map { .expected($0) } ?? .now
    }

    /// The last sample's time on the physics' timeline.
    public var lastSampleTime: BoardTime { BoardTime(micros: lastEngineTime) }

    /// A sample straight into the physics (CSV replay), at its own time.
    public mutating func ingest(sample: TimedSample, _ handle: (HostEvent) -> Void) {
        if halted { return }
        ingestTracked(sample, handle)
    }

    /// The link restarted without a HELLO (a replug of a board that kept
    /// running or whose boot HELLO went to no one, a text sketch): join the next
    /// sample's time to the last one's, and restart the decoder's sample
    /// tracking (what the board sent while unplugged is not lost on the wire).
    public mutating func linkRestarted() {
        stream.linkRestarted()
        rejoinPhysics()
        sceneSync.restart(pins: &pins)
    }

    /// The input ended (the host stops, a replay's file is done): damage still
    /// waiting for a delimiter is counted (`StreamReader.endOfStream()`).
    public mutating func endOfStream() {
        stream.endOfStream()
        counters.decoder = stream.decoderCounters
    }

    /// Makes the current (smoothed) pose the rest pose, as the live view's `c`
    /// key asks; says what came of it.
    public mutating func recalibrate() -> Recalibration {
        guard engine.settings.mode == .smooth else { return .fixedInRecipeMode }
        guard sawSample else { return .noSampleYet }
        guard engine.calibrateToCurrentPose() else { return .onItsSide }
        return .restPose(degrees: engine.smooth.rest.degrees)
    }

    /// Removes pin `index` (0 = oldest); the board is told from the next tick on.
    @discardableResult public mutating func removePin(at index: Int) -> Pin? { pins.remove(at: index) }

    /// Removes every pin.
    public mutating func removeAllPins() { pins.removeAll() }

    /// Join the next sample's time to the last one's (HELLO, a replug).
    mutating func rejoinPhysics() {
        if sawSample { rejoinPending = true }
    }

    // MARK: - Internals

    mutating func apply(_ event: StreamReader.Event, _ handle: (HostEvent) -> Void) {
        switch event {
        case .formatDetected(let format): handle(.formatDetected(format))
        case .sample(let sample): ingestTracked(sample, handle)
        case .frame(let frame): apply(frame, handle)
        }
    }

    mutating func apply(_ frame: Frame, _ handle: (HostEvent) -> Void) {
        switch frame {
        case .hello(let hello): applyHello(hello, handle)
        case .ready(let ready):
            guard frameSyncAsked else { return }
            viewWanted = true
            latchTime = ready.idle ? nil : ready.boardTime
            lastReadyAny = true
            noteCadence(ready)
            sendView(handle)
        case .parts(let parts): handle(.parts(parts))
        case .sample, .pong, .offsets, .hostHello, .ping, .configure, .drawer, .pin, .sync, .describe, .display: break  // not ours to act on (loopback, echoes)
        }
    }

    mutating func applyHello(_ hello: HelloFrame, _ handle: (HostEvent) -> Void) {
        counters.hellos += 1
        self.hello = hello
        handle(.hello(hello))
        guard hello.protocolVersion == Self.protocolVersion else {
            halted = true
            handle(.versionMismatch(board: hello.protocolVersion, host: Self.protocolVersion))
            return
        }
        if !engine.converter.adoptRanges(of: hello) {
            handle(.unsupportedRange(accelSelect: hello.accelFullScaleSelect, gyroSelect: hello.gyroFullScaleSelect))
        }
        if !SampleTracker.plausibleRatesHz.contains(hello.sampleRateHz) {
            handle(.implausibleRate(hz: hello.sampleRateHz))
        }
        if let hostTileID, hello.contentTileID != hostTileID {
            handle(.tileMismatch(board: hello.contentTileID, host: hostTileID))
        }
        offsetsSequence = 0
        rejoinPhysics()  // the stream's decoder already restarted its tracking for this HELLO
        scene.drawer = .empty  // a board says HELLO with nothing of the drawer in its RAM
        sceneSync.restart(pins: &pins)
        // HELLO switched the board's READY off; smooth mode asks again (recipe
        // mode keeps the book's 30 ms tick alone).
        viewWanted = false
        latchTime = nil
        lastReady = nil
        latchInterval = nil
        lastReadyAny = false
        frameSyncAsked = runsPhysics && engine.settings.mode == .smooth
        if frameSyncAsked { handle(.frameSync) }
        handle(.describeParts)
    }

    /// Frame sync: after a READY, one OFFSETS between ticks as soon as the
    /// newest sample moves the map from what the board was last sent.
    mutating func sendView(_ handle: (HostEvent) -> Void) {
        guard viewWanted, let last = scene.offsets, let (x, y) = engine.viewport(at: BoardTime(micros: lastEngineTime)) else { return }
        let frame = OffsetsFrame(
            sequence: offsetsSequence, viewportX: UInt16(clamping: x), viewportY: UInt16(clamping: y),
            ribbonX: last.ribbonX, ribbonBottom: last.ribbonBottom, flags: last.flags.subtracting(.fired))
        guard frame.viewportX != last.viewportX || frame.viewportY != last.viewportY else { return }
        offsetsSequence &+= 1
        viewWanted = false
        scene.offsets = frame
        handle(.view(OffsetsWire(frame)))
    }

    /// Frame sync: the board's frame cadence from the latches READY announces
    /// (a frame's whole length while it draws back to back), for `viewWatch`.
    mutating func noteCadence(_ ready: ReadyFrame) {
        guard !ready.idle else {
            lastReady = nil
            latchInterval = nil
            return
        }
        if let last = lastReady {
            let interval = (ready.boardTime &- last.latch) & 0xFF_FFFF
            latchInterval = (Self.plausibleFrames).contains(interval) ? interval : nil
        }
        lastReady = (ready.boardTime, chunkTime)
    }

    /// Latch-to-latch intervals taken for a frame cadence (a 128×64 frame is
    /// 9 ms on the fastest bus; a pause longer than 200 ms is not a cadence).
    static let plausibleFrames: ClosedRange<UInt32> = 5_000...200_000

    /// Frame sync: a sample taken before the announced latch wants a fresher
    /// view than the one already sent (the board takes the newest it has when
    /// it latches, so the view on the glass is as young as the line allows);
    /// the first sample from the latch on ends the chase until the next READY.
    mutating func followLatch(_ sampleTime: BoardTime) {
        guard let latch = latchTime else { return }
        let ahead = (latch &- UInt32(truncatingIfNeeded: sampleTime.micros)) & 0xFF_FFFF
        if ahead == 0 || ahead >= 0x80_0000 {
            latchTime = nil
            viewWanted = false  // the board has taken what it had; its next READY asks again
        } else {
            viewWanted = true
        }
    }

    mutating func ingestTracked(_ sample: TimedSample, _ handle: (HostEvent) -> Void) {
        guard runsPhysics else {
            counters.samples += 1
            lastSample = sample
            handle(.sample(sample))
            return
        }
        if rejoinPending {
            timeOffset = lastEngineTime &- sample.time.micros
            rejoinPending = false
        }
        // Shifted onto the physics' timeline; the engine keeps it from going back (`TiltEngine.ingest`).
        var timed = sample
        timed.time = BoardTime(micros: sample.time.micros &+ timeOffset)
        sawSample = true
        counters.samples += 1
        lastSample = sample
        // Most samples complete no tick: give them to the physics without
        // handing the session's tick state (scene, pins) over and back.
        if latchTime != nil { followLatch(sample.time) }
        guard engine.ticks(at: timed.time) else {
            engine.ingest(timed) { _ in preconditionFailure("TiltEngine.ticks(at:) said no tick") }
            if viewWanted { sendView(handle) }
            return
        }

        var sequence = offsetsSequence
        var ticks = counters.ticks
        var fires = counters.fires
        var dropped = counters.pinsDropped
        // Moved out, not copied: a drop then appends without copying the list.
        var pins = PinBoard.placeholder
        swap(&pins, &self.pins)
        var scene = self.scene
        var sync = sceneSync
        // A catch-up burst (a sample after a gap) sends only its last tick's
        // frames; a fire on an earlier one rides on that OFFSETS.
        var unsentFire = false
        engine.ingest(timed) { tick in
            var frame = OffsetsFrame(tick: tick, sequence: sequence)
            sequence &+= 1
            ticks += 1
            if tick.superseded {
                unsentFire = unsentFire || tick.fired
            } else {
                if unsentFire { frame.flags.insert(.fired) }
                unsentFire = false
                scene.offsets = frame
            }
            let events = tick.drawerEvents
            if let pin = events.dropped {
                pins.add(pin)
                dropped += 1
            }
            handle(.tick(tick, OffsetsWire(frame)))
            if !tick.superseded, let wire = sync.frames(for: tick.drawer, pins: &pins) {
                scene.apply(wire)
                handle(.sceneFrames(wire))
            }
            if tick.fired {
                fires += 1
                handle(.fired(tick, fires: fires))
            }
            if events.isEmpty { return }
            if let item = events.pulledOut { handle(.pulledOut(tick, item: item)) }
            if let pin = events.dropped { handle(.pinned(tick, pin, pins: pins.pins)) }
            if events.opened || events.closed { handle(.drawer(tick, open: events.opened)) }
        }
        offsetsSequence = sequence
        counters.ticks = ticks
        counters.fires = fires
        counters.pinsDropped = dropped
        self.pins = pins
        self.scene = scene
        sceneSync = sync
    }
}
