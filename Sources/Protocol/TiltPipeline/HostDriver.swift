import TiltCore
import WireProtocol

/// The host's decisions about *when*, as a pure state machine, in the style of
/// swift-nio's EmbeddedChannel: the shell feeds it what happened (bytes read,
/// the time, the port opened, vanished or failed to open, a stop request) and
/// performs the `HostAction`s it emits (write these bytes, open the port, run a
/// hook, print this news, finish with this ending); then it waits as
/// `nextWait(at:)` says. No clock, no I/O: tests drive it in virtual time.
///
/// Moments are `HostTime` (the shell's monotonic clock, or a test's virtual
/// one) and lengths µs; the physics still runs on the board's own timestamps
/// inside `HostSession`.
///
/// Decisions made here:
/// - **Hello timeout**: no valid frame within `helloTimeoutMicros` of the first
///   open, or format detection giving up, ends the run (`noValidFrames`).
/// - **Doze**: between ticks, leave samples that cannot complete the next tick
///   queued, waking `dozeMarginMicros` before it is due, but never for longer
///   than the board takes to send `dozeBufferBytes` (its buffers must not overflow).
/// - **Reconnect**: after the device vanishes, reopen by name with a backoff
///   (`reopenFirstMicros` doubling up to `reopenMaxMicros`). A reopened device
///   gets no bytes until it sends a valid frame (or the shell vouches for its
///   identity): a stale link that now names someone's terminal is never written to.
///   A reopened device that stays silent for the hello timeout is closed and
///   looked up again.
/// - **Samples stop**: a board that streamed and then sends no sample for
///   `samplesStoppedMicros` (or four of its sample periods, if longer) while
///   its port stays open is named once, and again when samples come back. A
///   board whose HELLO says its sensor is not answering is not expected to
///   stream: its HELLO said why.
/// - **Trouble**: losses and damaged input are reported at most once per
///   `troubleIntervalMicros`; a burst of losses also asks who else has the port open.
public struct HostDriver: Sendable {
    /// Every timing decision's constants, µs of host time unless named otherwise.
    public struct Configuration: Sendable, Equatable {
        /// No valid frame within this long after the first open ends the run.
        public var helloTimeoutMicros = SerialLine.helloTimeoutMicros
        /// Reopen after the device vanishes (false: the run ends with `deviceGone`).
        public var reconnect = SerialLine.reconnects
        /// Send HOST_HELLO on open, so a board that was not reset introduces itself.
        public var sendHostHello = true
        /// Ask every HELLO's board which parts it found (DESCRIBE → PARTS).
        public var askForParts = true
        /// Live view refresh period.
        public var refreshMicros: UInt64 = 200_000
        /// First wait before reopening a vanished device; doubles per failed try.
        public var reopenFirstMicros: UInt64 = 250_000
        /// Longest wait between reopen tries.
        public var reopenMaxMicros: UInt64 = 2_000_000
        /// How early to wake before a tick is due, on top of how late this
        /// machine's dozes have been ending (`WakeUpLateness`); at most half the
        /// announced sample period in all. nil: never doze.
        public var dozeMarginMicros: UInt64? = 200
        /// With frame sync, how early to wake before the board's next READY is
        /// expected (its frames vary by a millisecond or two with the sensor's
        /// reads and the scene; a READY read late answers after the latch).
        public var readyMarginMicros: UInt64 = 2_000
        /// A doze lasts at most as long as the board takes to send this many bytes:
        /// by default half the 4 KiB a tty buffers, for a real port, where a
        /// USB-serial bridge loses what the tty cannot take
        /// (`pseudoTerminalDozeBufferBytes` for a pty).
        public var dozeBufferBytes: UInt64 = 2048

        /// The doze budget for a pseudo-terminal (an emulated board): a pty
        /// holds far more than a tty's 4 KiB for its reader (20 KiB before a
        /// non-blocking writer got EAGAIN on Linux 6.18, docs/perf/host.md) and
        /// then makes the writer wait instead of losing bytes. At 10 kHz a 2 KiB
        /// budget woke the loop three extra times a 30 ms tick; 8 KiB lasts the tick.
        public static let pseudoTerminalDozeBufferBytes: UInt64 = 8192
        /// The line's byte rate (baud / 10): the rate a doze assumes at the least
        /// until the link's own rate is measured.
        public var lineBytesPerSecond: UInt64 = 11_520
        /// Shortest interval between two `trouble` news.
        public var troubleIntervalMicros: UInt64 = 1_000_000
        /// Frames lost within one trouble interval that make it worth naming other openers.
        public var lossSpikeFrames: UInt64 = 8
        /// No sample for this long (or four sample periods, if longer) from a
        /// board that streamed: say so (`HostNews.samplesStopped`).
        public var samplesStoppedMicros: UInt64 = 2_000_000

        /// The defaults: 4 s hello timeout, reconnect on, 200 ms refresh, reopen after 250 ms up to 2 s, 115200 baud's byte rate.
        public init() {}
    }

    /// SAMPLE frames are 23 bytes on the wire (docs/protocol.md).
    static let sampleWireBytes: UInt64 = 23

    enum Link: Sendable, Equatable {
        /// Before the first `portOpened`.
        case notOpened
        /// The port is open since `openedAt`. `verified`: the device may be written to.
        /// `heard`: a valid frame arrived since this open.
        case open(openedAt: HostTime, reopened: Bool, verified: Bool, heard: Bool)
        /// Closed after the device vanished; reopen at `reopenAt`, then wait `backoff` more.
        case closed(reopenAt: HostTime, backoff: UInt64)
        case finished
    }

    /// The timing constants it runs with.
    public let configuration: Configuration
    /// The pure session it feeds (decoding, physics, frames to send).
    public private(set) var session: HostSession
    var link = Link.notOpened
    var start: HostTime?
    var nextRefresh = HostTime.zero
    var silenceReported = false
    var arrivalOffset = WindowedMinimum(windowMicros: 1_000_000)
    var byteRate = ByteRateMeter(windowMicros: 100_000)
    /// When bytes were last read: a doze is measured from here.
    var lastRead = HostTime.zero
    /// The end of the doze last asked for (until `dozeEnded`), and how late
    /// this machine's dozes have been ending lately (`WakeUpLateness`).
    var dozeAskedUntil: HostTime?
    /// The end of the wait last asked for (any kind), until time passes.
    var waitAskedUntil: HostTime?
    var wakeUpLateness = WakeUpLateness()
    var trouble = TroubleReporter()
    var sampleWatch = SampleWatch()

    /// A driver around `session`, before anything is opened.
    public init(session: HostSession, configuration: Configuration) {
        self.session = session
        self.configuration = configuration
    }

    /// True once `.finish` was emitted.
    public var isFinished: Bool { link == .finished }

    /// Whether a port is open (as far as the driver knows).
    public var portIsOpen: Bool {
        if case .open = link { return true }
        return false
    }

    // MARK: - Inputs

    /// The port opened: the first time, or again after `.openPort`. `verified`:
    /// the shell knows it is the same device as before (e.g. the same USB serial
    /// number); ignored on the first open, which the user chose.
    public mutating func portOpened(at now: HostTime, verified: Bool = false, _ emit: (HostAction) -> Void) {
        guard link != .finished else { return }
        let first = link == .notOpened
        if first {
            start = now
            nextRefresh = now + configuration.refreshMicros
            emit(.news(.waitingForBoard))
        } else {
            session.linkRestarted()
            sampleWatch.forget()
            arrivalOffset = WindowedMinimum(windowMicros: arrivalOffset.windowMicros)
            byteRate = ByteRateMeter(windowMicros: byteRate.windowMicros)
            // Once per loss: looking a silent name up again is what the silence line said would happen.
            if !silenceReported { emit(.news(.reopened(verified: verified))) }
        }
        let trusted = first || verified
        link = .open(openedAt: now, reopened: !first, verified: trusted, heard: false)
        if trusted && configuration.sendHostHello { emit(.write(.hostHello)) }
        // After the greeting: looking other openers up reads /proc, which should not delay it.
        emit(.reportOtherOpeners)
    }

    /// Opening (after `.openPort`) failed: try again later, backing off.
    public mutating func portOpenFailed(at now: HostTime, _ emit: (HostAction) -> Void) {
        guard case .closed(_, let backoff) = link else { return }
        let next = min(backoff &* 2, configuration.reopenMaxMicros)
        link = .closed(reopenAt: now + backoff, backoff: next)
    }

    /// The device vanished (EOF, EIO, a hang-up, a failed write).
    public mutating func portGone(at now: HostTime, _ emit: (HostAction) -> Void) {
        guard case .open = link else { return }
        emit(.closePort)
        emit(.news(.deviceGone(reconnecting: configuration.reconnect)))
        guard configuration.reconnect else {
            finish(.deviceGone, at: now, emit)
            return
        }
        silenceReported = false
        sampleWatch.forget()
        let first = configuration.reopenFirstMicros
        link = .closed(reopenAt: now + first, backoff: min(first &* 2, configuration.reopenMaxMicros))
    }

    /// Bytes read from the port at host time `now`.
    public mutating func received(_ bytes: UnsafeRawBufferPointer, at now: HostTime, _ emit: (HostAction) -> Void) {
        guard case .open(let openedAt, let reopened, let verified, let heard) = link, !bytes.isEmpty else { return }
        lastRead = now
        byteRate.add(bytes.count, at: now)
        sampleWatch.read(bytes.count)
        let samplesBefore = session.counters.samples
        let framesBefore = session.counters.decoder.framesDecoded
        var helloAt: HostTime?
        var confirmed = verified
        var gotValid = heard
        let greetOnConfirm = configuration.sendHostHello
        let askForParts = configuration.askForParts
        let knownFormat = session.format
        session.receive(bytes, at: now) { event in
            if !gotValid { gotValid = true }
            if !confirmed {
                // The first valid frame since a reopen: this is the board.
                confirmed = true
                emit(.news(.boardConfirmed))
                var binary = knownFormat == .binaryProtocol
                if case .formatDetected(let f) = event { binary = f == .binaryProtocol }
                if greetOnConfirm && binary { emit(.write(.hostHello)) }
            }
            if case .hello = event { helloAt = now }
            if event == .describeParts && !askForParts { return }
            Self.forward(event, emit)
        }
        if let helloAt { sampleWatch.hello(at: helloAt) }
        let samples = session.counters.samples &- samplesBefore
        let frames = session.counters.decoder.framesDecoded &- framesBefore
        sampleWatch.otherFrames(frames > samples ? frames - samples : 0)
        if samples != 0, let news = sampleWatch.sample(at: now) { emit(.news(news)) }
        link = .open(openedAt: openedAt, reopened: reopened, verified: confirmed, heard: gotValid)
        if session.nextTick != nil {
            // Host time minus board time: where the two clocks meet (see `dozeDeadline`).
            arrivalOffset.add(Int64(bitPattern: now.micros) &- Int64(bitPattern: session.lastSampleTime.micros), at: now)
        }
        if session.halted, let hello = session.hello {
            finish(.protocolMismatch(board: hello.protocolVersion, host: HostSession.protocolVersion), at: now, emit)
            return
        }
        if session.format == nil && session.stream.detectionFailed {
            finish(.noValidFrames(seen: session.stream.seen, why: .detectionGaveUp(bytes: session.stream.detectionLimit, afterMicros: elapsed(now))), at: now, emit)
            return
        }
        reportTrouble(at: now, emit)
    }

    /// A sample straight into the physics at its own time (a CSV replay).
    public mutating func ingest(_ sample: TimedSample, _ emit: (HostAction) -> Void) {
        session.ingest(sample: sample) { Self.forward($0, emit) }
    }

    /// A session event as actions: a tick's OFFSETS is written before anyone
    /// hears of the tick (a superseded one's not at all), and a fire's hook
    /// starts after its event.
    static func forward(_ event: HostEvent, _ emit: (HostAction) -> Void) {
        switch event {
        case .tick(let tick, let wire):
            if !tick.superseded { emit(.write(.offsets(wire))) }
            emit(.event(event))
        case .view(let wire):
            emit(.write(.offsets(wire)))
            emit(.event(event))
        case .frameSync:
            emit(.write(.sync))
            emit(.event(event))
        case .describeParts:
            emit(.write(.describe))
        case .fired(let tick, let fires):
            emit(.event(event))
            emit(.runHook(.pull(tick, fires: fires)))
        case .sceneFrames(let wire):
            emit(.write(.scene(wire)))
            emit(.event(event))
        case .pinned(let tick, let pin, _):
            emit(.event(event))
            emit(.runHook(.pin(tick, pin)))
        default:
            emit(.event(event))
        }
    }

    /// Array convenience (tests).
    public mutating func received(_ bytes: [UInt8], at now: HostTime, _ emit: (HostAction) -> Void) {
        bytes.withUnsafeBytes { received($0, at: now, emit) }
    }

    /// A wait that ends this much later than asked means this process did not
    /// run meanwhile (a loaded machine's wake-ups are late by milliseconds).
    static let stoppedAfterMicros: UInt64 = 500_000

    /// The time is now `now` (a wait ended without bytes, or after bytes): act on due deadlines.
    public mutating func timePassed(at now: HostTime, _ emit: (HostAction) -> Void) {
        // Woken long after the wait asked for: stopped (Ctrl-Z, SIGSTOP) or its
        // machine suspended. As `resumed`, whether or not the SIGCONT was read
        // yet: its byte may come after the wait's timer, and the board was
        // named silent for the time this process stood still.
        if let asked = waitAskedUntil, now > asked + Self.stoppedAfterMicros { resumed(at: now) }
        waitAskedUntil = nil
        switch link {
        case .notOpened, .finished:
            return
        case .closed(let reopenAt, _):
            if now >= reopenAt { emit(.openPort) }
        case .open(let openedAt, let reopened, _, let heard):
            if !reopened && session.format == nil && now >= openedAt + configuration.helloTimeoutMicros {
                finish(.noValidFrames(seen: session.stream.seen, why: .timedOut(micros: configuration.helloTimeoutMicros)), at: now, emit)
                return
            }
            if reopened && !heard && now >= openedAt + configuration.helloTimeoutMicros {
                // Whatever the name leads to now is not talking: close it and look the name up again.
                if !silenceReported {
                    emit(.news(.silentAfterReopen(micros: now.micros - openedAt.micros)))
                    silenceReported = true
                }
                emit(.closePort)
                sampleWatch.forget()
                let first = configuration.reopenFirstMicros
                link = .closed(reopenAt: now + first, backoff: min(first &* 2, configuration.reopenMaxMicros))
            }
            noteSamplesStopped(at: now, emit)
            reportTrouble(at: now, emit)
        }
        if now >= nextRefresh {
            emit(.refresh)
            nextRefresh = now + configuration.refreshMicros
        }
    }

    /// This process was stopped (Ctrl-Z, SIGSTOP) and runs again at `now`:
    /// the time it stood still was its own, so the watch for a silent board
    /// and the wait for a first frame start over (the board streamed all
    /// along; it was named silent, then "samples again after 4.0 s without").
    public mutating func resumed(at now: HostTime) {
        sampleWatch.hostResumed(at: now)
        if case .open(_, let reopened, let verified, let heard) = link {
            link = .open(openedAt: now, reopened: reopened, verified: verified, heard: heard)
        }
    }

    /// The doze `nextWait` asked for ended at `now` (its timer, not the stop
    /// pipe): how late it was tells how much earlier the next one must end.
    public mutating func dozeEnded(at now: HostTime) {
        guard let asked = dozeAskedUntil else { return }
        dozeAskedUntil = nil
        wakeUpLateness.add(now > asked ? now.micros(since: asked) : 0)
    }

    /// Ctrl-C, SIGTERM, the stop pipe, or the end of a replay.
    public mutating func stop(at now: HostTime, _ emit: (HostAction) -> Void) {
        guard link != .finished else { return }
        if portIsOpen { emit(.closePort) }
        finish(nil, at: now, emit)
    }

    /// Make the current (smoothed) pose the rest pose now (the live view's `c`
    /// key, or a replay's `recalibrated` record). Returns what came of it, for
    /// the output to say; nil once the run finished (nothing changes then).
    public mutating func recalibrate(at now: HostTime) -> Recalibration? {
        guard link != .finished else { return nil }
        return session.recalibrate()
    }

    /// The link restarted without the driver seeing the port close (a replay's
    /// `linkRestarted` record): the same as a vouched-for reopen, without news.
    public mutating func linkRestarted(at now: HostTime) {
        session.linkRestarted()
        sampleWatch.forget()
        arrivalOffset = WindowedMinimum(windowMicros: arrivalOffset.windowMicros)
    }

    /// A replay's file is done: damage still waiting for a delimiter is
    /// counted (`HostSession.endOfStream()`), as when a live run finishes.
    public mutating func inputEnded() {
        session.endOfStream()
    }

    // MARK: - Questions

    /// How to wait after the last input: read the port, or leave it (doze, or
    /// no port open), until the earliest deadline. Mutating only so a shell
    /// that keeps the driver in a local variable calls it in place: a
    /// non-mutating call on that variable copied all 3 KB of it every wake-up.
    public mutating func nextWait(at now: HostTime) -> HostWait {
        let wait = nextWaitAsked(at: now)
        switch wait {
        case .doze(let until), .sleep(let until), .port(let until): waitAskedUntil = until
        case .done: waitAskedUntil = nil
        }
        return wait
    }

    mutating func nextWaitAsked(at now: HostTime) -> HostWait {
        var until = nextRefresh
        dozeAskedUntil = nil
        switch link {
        case .finished:
            return .done
        case .notOpened:
            return .port(until: now)
        case .closed(let reopenAt, _):
            return .sleep(until: min(until, reopenAt))
        case .open(let openedAt, let reopened, _, let heard):
            if (!reopened && session.format == nil) || (reopened && !heard) {
                until = min(until, openedAt + configuration.helloTimeoutMicros)
            }
            if let due = trouble.pendingDeadline(counters: session.counters, interval: configuration.troubleIntervalMicros) {
                until = min(until, due)
            }
            if samplesExpected, let due = sampleWatch.deadline(after: samplesStoppedMicros) {
                until = min(until, due)
            }
            if let doze = dozeDeadline(at: now), doze > now + shortestDozeMicros {
                dozeAskedUntil = min(until, doze)
                return .doze(until: min(until, doze))
            }
            return .port(until: until)
        }
    }

    /// The run's summary so far.
    public func summary(at now: HostTime) -> HostSummary {
        var summary = HostSummary(durationMicros: elapsed(now), counters: session.counters)
        summary.pinCount = session.pins.count
        return summary
    }

    /// The current state, for a live view.
    public func snapshot(at now: HostTime) -> HostSnapshot {
        let engine = session.engine
        var snapshot = HostSnapshot(
            elapsedMicros: elapsed(now), counters: session.counters, format: session.format,
            hello: session.hello, lastTick: engine.lastTick, lastOffsets: session.scene.offsets,
            lastSample: session.lastSample, converter: engine.converter, mode: engine.settings.mode,
            restDegrees: engine.smooth.rest.degrees, fireThreshold: engine.settings.fireThreshold)
        snapshot.scene = session.scene
        return snapshot
    }

    // MARK: - Internals

    func elapsed(_ now: HostTime) -> UInt64 {
        guard let start, now > start else { return 0 }
        return now.micros(since: start)
    }

    mutating func finish(_ failure: HostFailure?, at now: HostTime, _ emit: (HostAction) -> Void) {
        link = .finished
        session.endOfStream()
        emit(.finish(HostEnding(failure: failure, summary: summary(at: now))))
    }

    /// Whether the board should be streaming: not when its last HELLO says its
    /// sensor is not answering (that HELLO said why it is not).
    var samplesExpected: Bool { session.hello?.sensorAnswered ?? true }

    /// How long without a sample before `samplesStopped`: the configured
    /// length, or four sample periods at the rate HELLO announced if longer.
    var samplesStoppedMicros: UInt64 {
        let rate = UInt64(session.hello?.sampleRateHz ?? 0)
        let periods = rate == 0 ? 0 : 4_000_000 / rate
        return max(configuration.samplesStoppedMicros, periods)
    }

    mutating func noteSamplesStopped(at now: HostTime, _ emit: (HostAction) -> Void) {
        guard samplesExpected, let news = sampleWatch.check(at: now, after: samplesStoppedMicros) else { return }
        emit(.news(news))
    }

    mutating func reportTrouble(at now: HostTime, _ emit: (HostAction) -> Void) {
        guard let news = trouble.report(counters: session.counters, at: now, interval: configuration.troubleIntervalMicros) else { return }
        emit(.news(news))
        if case .trouble(let lost, _, _, _) = news, lost >= configuration.lossSpikeFrames {
            emit(.reportOtherOpeners)
        }
    }
}
