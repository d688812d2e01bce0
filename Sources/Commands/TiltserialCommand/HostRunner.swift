import SerialIO
import TiltAssets
import TiltCore
import TiltPhysics
import TiltPipeline
import WireProtocol

/// Builds the session a run or a replay uses: the shipped art (the drawer gets
/// its items), the settings, the axes, and the pins kept from earlier runs.
/// `runsPhysics` false: the session reports samples instead (`calibrate`).
public func makeHostSession(settings: HostSettings, art: TiltAssets.Art, pins: [Pin] = [], runsPhysics: Bool = true) throws(Failure) -> HostSession {
    do {
        let engine = try TiltEngine(
            settings: settings.physics, geometry: art.tile.geometry, ribbonArt: art.ribbon.mask,
            converter: SampleConverter(mapping: settings.axes), drawerItems: art.items.count)
        return HostSession(engine: engine, hostTileID: art.tile.id, pins: pins, runsPhysics: runsPhysics)
    } catch {
        throw Failure(.badSettings, error.description)
    }
}

/// The live loop: a thin shell around `HostDriver`. It waits as the driver
/// says (on the port and the stop pipe, or on the stop pipe alone), feeds it
/// what happened, and performs its actions once each driver call returned:
/// what only the shell can do (write, open, close the port) itself, the rest
/// (events, news, hooks, redraws) through its `HostOutput`. Every decision
/// about time lives in the driver; the clock is injected. Reusable in-process
/// (`tiltserial demo` runs it against an emulated board's pty).
public final class HostRunner {
    /// The port, settings, pins and timing this runner was made with.
    public let options: HostRunOptions
    var driver: HostDriver
    let output: any HostOutput
    var recorder: RecordingWriter?
    let clock: @Sendable () -> HostTime
    let openPort: (HostRunOptions) throws(SerialError) -> any SerialTransport
    var origin = HostTime.zero

    var transport: (any SerialTransport)?
    /// The last driver call's actions, performed in order once it returned;
    /// performing one may call the driver again (a reopen), whose actions join
    /// the end. Emptied, keeping its capacity: no allocation per tick.
    var actions: [HostAction] = []
    var ending: HostEnding? { didSet { ended = true } }
    var hardFailure: Failure? { didSet { failed = true } }
    // Whether `ending` and `hardFailure` are set, tested in the loops instead of
    // them: comparing an optional of a large struct with nil copies it each time.
    var ended = false
    var failed = false
    var stopping: Bool { ended || failed }
    /// What the port was on the first open: a reopened device that proves to be
    /// the same USB device may be written to before it speaks.
    var identity: PortIdentity?
    /// Why the last reopen failed, if it did: a reason is said once, not at every try.
    var lastReopenRefusal: SerialError?

    /// - Parameters:
    ///   - art: the content tile and ribbon (default: the shipped assets).
    ///   - clock: the monotonic clock (default: `MonotonicClock.now`, CLOCK_MONOTONIC).
    ///   - open: opens `options.port` (default: `SerialPort.open` with the settings' baud and DTR).
    ///   - output: where events, news, hooks and redraws go.
    public init(
        options: HostRunOptions, output: any HostOutput, art: TiltAssets.Art? = nil,
        clock: @escaping @Sendable () -> HostTime = MonotonicClock.now,
        open: @escaping (HostRunOptions) throws(SerialError) -> any SerialTransport = HostRunner.openByName
    ) throws(Failure) {
        self.options = options
        self.output = output
        actions.reserveCapacity(64)
        self.clock = clock
        openPort = open
        let loaded: TiltAssets.Art
        if let art { loaded = art } else { loaded = try Self.loadArt() }
        let session = try makeHostSession(settings: options.settings, art: loaded, pins: options.pins, runsPhysics: options.runsPhysics)
        driver = HostDriver(session: session, configuration: options.driverConfiguration)
    }

    /// The session (physics, counters) as the last run left it.
    public var session: HostSession { driver.session }

    static func loadArt() throws(Failure) -> TiltAssets.Art {
        do { return try TiltAssets.load() } catch { throw Failure(.ioError, error.description) }
    }

    /// Opens the port by the name the user gave, with the settings' baud and DTR.
    public static func openByName(_ options: HostRunOptions) throws(SerialError) -> any SerialTransport {
        try SerialPort.open(path: options.port, baud: options.settings.baud, options: SerialOptions(dtr: options.settings.dtr))
    }

    /// The run clock's time at the last `tick()`.
    var lastNow = HostTime.zero

    /// Runs until `stop` is woken (returns the summary) or a failure ends it
    /// (then `lastSummary` has the summary so far).
    /// - Parameter transport: an already-open port (its name is only used for
    ///   messages; reconnects reopen `options.port`); nil opens `options.port`.
    public func run(transport given: (any SerialTransport)? = nil, stop: WakeUpPipe) throws(Failure) -> HostSummary {
        origin = clock()
        if let path = options.recordPath {
            recorder = try RecordingWriter(path: path, baud: UInt32(clamping: options.settings.baud))
        }
        defer {
            recorder?.finish()
            transport?.close()
        }
        if let given { transport = given } else { transport = try open() }
        identity = try? PortIdentity.current(path: options.port)
        // The driver lives on this stack for the run: no copies, no dynamic
        // exclusivity checks per wake-up (it is handed back at the end).
        var driver = self.driver
        defer { self.driver = driver }
        let opened = tick()
        drive(&driver) { $0.portOpened(at: opened, $1) }

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 8)
        defer { buffer.deallocate() }
        while !stopping {
            let start = tick()
            switch driver.nextWait(at: start) {
            case .done:
                break
            case .doze(let until):
                if stop.wait(timeout: Self.span(from: start, to: until)) {
                    wokenUp(&driver, stop)
                } else {
                    driver.dozeEnded(at: tick())
                    // After a doze the port has bytes waiting, most likely: they are
                    // read straight away (a read never blocks) instead of polling first.
                    let read = transport.map { readAll(&driver, $0, buffer) } ?? true
                    if read && !stopping {
                        let now = tick()
                        drive(&driver) { $0.timePassed(at: now, $1) }
                    }
                }
            case .sleep(let until):
                if stop.wait(timeout: Self.span(from: start, to: until)) {
                    wokenUp(&driver, stop)
                } else {
                    let now = tick()
                    drive(&driver) { $0.timePassed(at: now, $1) }
                }
            case .port(let until):
                waitOnPort(&driver, for: Self.span(from: start, to: until), stop: stop, buffer: buffer)
            }
        }
        let summary = ending?.summary ?? driver.summary(at: tick())
        lastSummary = summary
        if let failure = hardFailure { throw failure }
        if let failure = ending?.failure { throw render(failure, session: driver.session) }
        return summary
    }

    /// What the last `run` did, whether it returned or threw; nil when it
    /// stopped before its loop (the port or `--record` would not open).
    public private(set) var lastSummary: HostSummary?

    /// Reads the clock once; actions performed until the next read use this
    /// time, counted from the run's start (as a recording stores it).
    func tick() -> HostTime {
        lastNow = HostTime(micros: clock().micros(since: origin))
        return lastNow
    }

    /// How long to wait from `start` until the driver's deadline (zero when it has passed):
    /// where the driver's host µs become the edges' `Duration`.
    static func span(from start: HostTime, to until: HostTime) -> Duration {
        .microseconds(until > start ? Int64(clamping: until.micros(since: start)) : 0)
    }

    /// One wait on the port and the stop pipe, at most `span`; reads everything waiting.
    func waitOnPort(_ driver: inout HostDriver, for span: Duration, stop: WakeUpPipe, buffer: UnsafeMutableRawBufferPointer) {
        guard let transport else { return }
        let waited: SerialWaitResult
        do throws(SerialError) {
            waited = try transport.wait(timeout: span, orWakeUp: stop.readEnd)
        } catch {
            portFailed(&driver, error)
            return
        }
        switch waited {
        case .wokenUp:
            wokenUp(&driver, stop)
            return
        case .readable:
            guard readAll(&driver, transport, buffer) else { return }
        case .timedOut:
            _ = tick()
        }
        if !ended {
            let now = lastNow
            drive(&driver) { $0.timePassed(at: now, $1) }
        }
    }

    /// Drains the port into the driver; false when the device went away (a
    /// read or a write found it gone) or the read failed: the driver or the
    /// run has heard of it, and the wake-up ends there.
    func readAll(_ driver: inout HostDriver, _ transport: any SerialTransport, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        do throws(SerialError) {
            try drain(&driver, transport, buffer)
            return self.transport != nil
        } catch {
            portFailed(&driver, error)
            return false
        }
    }

    /// A read or wait failed: a vanished device is the driver's to handle
    /// (close, reconnect or end), anything else ends the run.
    func portFailed(_ driver: inout HostDriver, _ error: SerialError) {
        if case .deviceGone = error {
            closePort()
            let now = tick()
            drive(&driver) { $0.portGone(at: now, $1) }
        } else {
            hardFailure = Failure(error)
        }
    }

    func closePort() {
        transport?.close()
        transport = nil
    }

    /// Reads until the port has nothing more, feeding the driver chunk by chunk;
    /// bounded so a flooding device cannot hide Ctrl-C for long. A terminal's
    /// line discipline hands out at most `ttyReadLimit` bytes a read, so only a
    /// shorter read shows its buffer was emptied (the next poll reports bytes
    /// that arrive meanwhile): that saves the empty read that would end the loop.
    func drain(_ driver: inout HostDriver, _ transport: any SerialTransport, _ buffer: UnsafeMutableRawBufferPointer) throws(SerialError) {
        var budget = 256 * 1024
        while budget > 0 && self.transport != nil && !stopping {
            let count = try transport.read(into: buffer)
            let at = tick()
            if count == 0 { return }
            budget -= count
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            if let recorder {
                recorder.append(chunk, .fromBoard, at: at)
                if let message = recorder.newFailure { output.recordingFailed(message) }
            }
            drive(&driver) { $0.received(chunk, at: at, $1) }
            if count < Self.ttyReadLimit { return }
        }
    }

    /// N_TTY_BUF_SIZE - 1: the most one read(2) returns from a Linux terminal.
    static let ttyReadLimit = 4095

    /// Calls the driver, then performs what it asked for, in order.
    func drive(_ driver: inout HostDriver, _ call: (inout HostDriver, (HostAction) -> Void) -> Void) {
        call(&driver) { actions.append($0) }
        var next = 0
        while next < actions.count {
            perform(actions[next], &driver)
            next += 1
        }
        actions.removeAll(keepingCapacity: true)
    }

    /// Does what the driver asked: the port's part here, the rest through `output`.
    /// An answer to the driver (a reopen, a vanished device) queues its actions behind.
    func perform(_ action: HostAction, _ driver: inout HostDriver) {
        switch action {
        case .write(let bytes):
            guard let transport, !failed else { return }
            do throws(SerialError) {
                try write(bytes.wire, transport)
            } catch .deviceGone {
                // Closed now, so the writes still queued are skipped.
                closePort()
                driver.portGone(at: tick()) { actions.append($0) }
            } catch {
                hardFailure = Failure(error)
            }
        case .event(let event):
            output.event(event)
        case .news(let news):
            output.news(news)
        case .runHook(let request):
            output.hook(request)
        case .refresh:
            output.refresh(driver.snapshot(at: lastNow))
        case .openPort:
            reopen(&driver)
        case .closePort:
            closePort()
        case .reportOtherOpeners:
            let others = DeviceOpeners.others(of: options.port)
            if !others.isEmpty { output.otherOpeners(others) }
        case .finish(let ending):
            self.ending = ending
        }
    }

    /// Writes one action's frames and records them as sent.
    func write(_ wire: WireBytes, _ transport: any SerialTransport) throws(SerialError) {
        var failure: SerialError?
        wire.withUnsafeBytes { raw in
            do throws(SerialError) {
                try transport.write(raw)
                recorder?.append(raw, .toBoard, at: lastNow)
            } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The driver's `openPort`: open the name again and answer with the result
    /// (its actions queue behind the one being performed).
    func reopen(_ driver: inout HostDriver) {
        let port: any SerialTransport
        do {
            port = try openPort(options)
        } catch {
            switch error {
            case .noSuchPort, .danglingLink: break  // not back yet: the unplug line said so
            default: if error != lastReopenRefusal { output.reopenRefused(error) }
            }
            lastReopenRefusal = error
            driver.portOpenFailed(at: tick()) { actions.append($0) }
            return
        }
        lastReopenRefusal = nil
        transport = port
        reportFTDILatency()
        let same = identity.flatMap { before in
            (try? PortIdentity.current(path: options.port)).map { before.compare(with: $0).allowsWritingBeforeAFrame }
        } ?? false
        let at = tick()
        recorder?.append(UnsafeRawBufferPointer(start: nil, count: 0), .linkRestarted, at: at)
        driver.portOpened(at: at, verified: same) { actions.append($0) }
    }

    /// What `--record` could not write (nil: no recording, or nothing lost).
    public var recordingLoss: (records: Int, bytes: Int)? {
        guard let recorder, recorder.recordsNotWritten > 0 else { return nil }
        return (recorder.recordsNotWritten, recorder.bytesNotWritten)
    }

    func open() throws(Failure) -> any SerialTransport {
        do {
            let port = try openPort(options)
            transport = port
            reportFTDILatency()
            return port
        } catch {
            throw Failure(error)
        }
    }

    func reportFTDILatency() {
        if let resolved = try? PortPath.resolve(options.port) {
            output.ftdiLatency(FTDILatency.lower(devicePath: resolved.resolved))
        }
    }
}
