import TiltCore
import TiltDisplay
import TiltPhysics
import WireProtocol

/// The host's whole job as a pure state machine: bytes from the board in,
/// OFFSETS frames and events out. No I/O, no clock: the shell passes the host
/// receive time with each chunk (used only to stamp text-format samples, which
/// carry no board time) and decides itself when to give up waiting.
///
/// - Format: detected from the first bytes (`FormatDetector`); the bytes seen
///   while deciding are replayed into the chosen reader, so none is lost.
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
    /// The host's content tile id, compared with HELLO's (nil: don't check).
    public let hostTileID: UInt16?
    /// The detected format; nil while undecided.
    public private(set) var format: StreamFormat?
    /// The last HELLO.
    public private(set) var hello: HelloFrame?
    /// The last OFFSETS frame produced.
    public private(set) var lastOffsets: OffsetsFrame?
    /// The pins, oldest first (the host owns them; the board gets them slot by slot).
    public private(set) var pins: PinBoard
    /// What the board was told to draw: OFFSETS, DRAWER and PIN as sent.
    public private(set) var scene = BoardScene()
    /// Set after a version mismatch: input is ignored from then on.
    public private(set) var halted = false
    /// Bytes, frames, samples, ticks, losses and errors so far.
    public private(set) var counters = HostCounters()
    /// The last sample given to the physics, as received (raw counts, board
    /// time): what the live view's sensor panel shows.
    public private(set) var lastSample: TimedSample?

    var detector: FormatDetector
    var decoder = FrameDecoder()
    var i2cdevlib = I2CDevLibReader()
    var motionCal = MotionCalReader()
    var offsetsSequence: UInt8 = 0
    /// Engine time = board time + timeOffset (wrapping), re-chosen after a link restart.
    var timeOffset: UInt64 = 0
    var lastEngineTime: UInt64 = 0
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
    public init(engine: TiltEngine, hostTileID: UInt16?, format: StreamFormat? = nil, detectionLimit: Int = 2048, pins: [Pin] = []) {
        self.engine = engine
        self.hostTileID = hostTileID
        self.format = format
        detector = FormatDetector(limit: detectionLimit)
        self.pins = PinBoard(pins)
    }

    /// What the stream looked like so far, for the shell's "no valid frames" message.
    public var seen: StreamContent { detector.seen }

    /// The bytes format detection looked at (all of them while undecided).
    public var seenBytes: [UInt8] { detector.seenBytes }

    /// The first line received, for the shell's "no valid frames" message.
    public func firstLine(limit: Int = 64) -> ArraySlice<UInt8> { detector.firstLine(limit: limit) }

    /// Bytes format detection examines before it gives up.
    public var detectionLimit: Int { detector.limit }

    /// True once detection examined `detectionLimit` bytes without a verdict:
    /// the shell should stop and report `seen`.
    public var detectionFailed: Bool {
        if case .unknown = detector.result { return format == nil }
        return false
    }

    /// Digests one chunk received at host time `receivedAt`, calling `handle`
    /// for each event in order. Ticks come out as soon as the sample that
    /// completes them is read.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, at receivedAt: HostTime, _ handle: (HostEvent) -> Void) {
        if halted || bytes.isEmpty { return }
        chunkTime = receivedAt
        guard let format else {
            detect(bytes, at: receivedAt, handle)
            return
        }
        switch format {
        case .binaryProtocol:
            var decoder = self.decoder
            decoder.feed(bytes) { frame in
                if !halted { apply(frame, handle) }
            }
            self.decoder = decoder
            counters.decoder = decoder.counters
        case .i2cdevlib:
            var reader = i2cdevlib
            reader.feed(bytes, receivedAt: receivedAt) { ingestTracked($0, handle) }
            i2cdevlib = reader
            counters.text = reader.counters
        case .motionCal:
            var reader = motionCal
            reader.feed(bytes, receivedAt: receivedAt) { ingestTracked($0, handle) }
            motionCal = reader
            counters.text = reader.counters
        }
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
        decoder.linkRestarted()
        rejoinPhysics()
        sceneSync.restart(pins: &pins)
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

    mutating func detect(_ bytes: UnsafeRawBufferPointer, at receivedAt: HostTime, _ handle: (HostEvent) -> Void) {
        guard let found = detector.detect(bytes) else { return }
        format = found.format
        handle(.formatDetected(found.format))
        // Everything the detector looked at goes through the chosen reader, then
        // whatever of this chunk lay past its limit.
        found.seen.withUnsafeBytes { receive($0, at: receivedAt, handle) }
        if found.restStart < bytes.count {
            receive(UnsafeRawBufferPointer(rebasing: bytes[found.restStart...]), at: receivedAt, handle)
        }
    }

    mutating func apply(_ frame: DecodedFrame, _ handle: (HostEvent) -> Void) {
        switch frame {
        case .hello(let hello): applyHello(hello, handle)
        case .sample(let sample): ingestTracked(sample, handle)
        case .ready(let ready):
            guard frameSyncAsked else { return }
            viewWanted = true
            latchTime = ready.idle ? nil : ready.boardTime
            lastReadyAny = true
            noteCadence(ready)
            sendView(handle)
        case .parts(let parts): handle(.parts(parts))
        case .pong, .offsets, .hostHello, .ping, .configure, .drawer, .pin, .sync, .describe, .display: break  // not ours to act on (loopback, echoes)
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
        if let accel = hello.accelRange, let gyro = hello.gyroRange {
            engine.converter.accelRange = accel
            engine.converter.gyroRange = gyro
        } else {
            handle(.unsupportedRange(accelSelect: hello.accelFullScaleSelect, gyroSelect: hello.gyroFullScaleSelect))
        }
        if let hostTileID, hello.contentTileID != hostTileID {
            handle(.tileMismatch(board: hello.contentTileID, host: hostTileID))
        }
        offsetsSequence = 0
        rejoinPhysics()  // the decoder already restarted its tracking for this HELLO
        scene.drawer = .empty  // a board says HELLO with nothing of the drawer in its RAM
        sceneSync.restart(pins: &pins)
        // HELLO switched the board's READY off; smooth mode asks again (recipe
        // mode keeps the book's 30 ms tick alone).
        viewWanted = false
        latchTime = nil
        lastReady = nil
        latchInterval = nil
        lastReadyAny = false
        frameSyncAsked = engine.settings.mode == .smooth
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
        if rejoinPending {
            timeOffset = lastEngineTime &- sample.time.micros
            rejoinPending = false
        }
        var timed = sample
        timed.time = BoardTime(micros: max(sample.time.micros &+ timeOffset, lastEngineTime))
        lastEngineTime = timed.time.micros
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
        var last = lastOffsets
        // Moved out, not copied: a drop then appends without copying the list.
        var pins = PinBoard.placeholder
        swap(&pins, &self.pins)
        var scene = self.scene
        var sync = sceneSync
        engine.ingest(timed) { tick in
            let frame = OffsetsFrame(tick: tick, sequence: sequence)
            sequence &+= 1
            ticks += 1
            last = frame
            scene.offsets = frame
            let events = tick.drawerEvents
            if let pin = events.dropped {
                pins.add(pin)
                dropped += 1
            }
            handle(.tick(tick, OffsetsWire(frame)))
            if let wire = sync.frames(for: tick.drawer, pins: &pins) {
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
        lastOffsets = last
        self.pins = pins
        self.scene = scene
        sceneSync = sync
    }
}
