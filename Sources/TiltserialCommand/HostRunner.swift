#if canImport(Glibc)
import Glibc
#endif
import SerialIO
import TiltAssets
import TiltCore
import TiltPhysics
import TiltPipeline
import WireProtocol

/// How `HostRunner` runs a port.
public struct HostRunOptions: Sendable {
    /// The port as the user named it (a device, a /dev/serial/by-id link, a pty or
    /// its symlink); reopened by this name after an unplug.
    public var port: String
    public var settings: HostSettings
    /// `--record FILE`: raw bytes both ways with host times (TiltPipeline.Recording).
    public var recordPath: String?
    /// Send HOST_HELLO after opening so a board that was not reset introduces itself.
    public var sendHostHello = true
    /// Live view refresh period.
    public var refreshMicros = 200_000
    /// Check period while waiting for an unplugged device to return.
    public var reconnectPollMicros = 250_000
    /// Between ticks, leave samples that cannot complete the next tick queued in
    /// the kernel and wake once, `dozeMarginMicros` before the tick is due,
    /// instead of once per sample (1000 wake-ups a second at 1 kHz). The margin
    /// absorbs the board clock's drift and transport jitter; nil: never doze.
    public var dozeMarginMicros: UInt64? = 3_000
    /// A doze lasts at most as long as the board takes to send this many bytes
    /// (at the rate its HELLO announced), so fast boards never overflow the
    /// kernel's and the board's buffers while the host sleeps (a pty holds
    /// about 4 KiB; so does the native board's UART model).
    public var dozeBufferBytes = 1024

    public init(port: String, settings: HostSettings = HostSettings(), recordPath: String? = nil) {
        self.port = port
        self.settings = settings
        self.recordPath = recordPath
    }
}

/// Connection news: for people (stderr), never part of the `--json` data.
public enum HostStatus: Sendable, Equatable {
    /// The port is open; waiting for the board's first frame.
    case waitingForBoard(port: String)
    /// What was done about the FTDI latency timer.
    case ftdiLatency(FTDILatency.Outcome)
    /// The device vanished; `reconnecting` false means the run ends.
    case deviceGone(port: String, reconnecting: Bool)
    /// The device is back and open again.
    case reconnected(port: String)
}

/// What the live view shows, about 5 times a second.
public struct HostSnapshot: Sendable {
    public var elapsedMicros: UInt64
    public var counters: HostCounters
    public var format: StreamFormat?
    public var hello: HelloFrame?
    public var lastTick: Tick?
    public var lastOffsets: OffsetsFrame?
}

/// How a run ended (Ctrl-C, the stop pipe, or the end of a replay).
public struct HostSummary: Sendable, Equatable {
    public var durationMicros: UInt64
    public var counters: HostCounters

    /// The one-line summary printed on exit.
    public var line: String {
        let seconds = Double(durationMicros) / 1_000_000
        let tenths = (seconds * 10).rounded() / 10
        let c = counters
        let received = c.decoder.framesDecoded + c.text.samples
        let frames = received == 0 ? c.samples : received  // CSV replays: samples
        return "\(tenths) s, \(frames) frames, \(c.lostFrames) lost, \(c.errors) errors, \(c.ticks) ticks, \(c.fires) fires"
    }
}

/// Where a run's output goes. Calls come on the runner's thread.
public struct HostSinks {
    /// Every data event (the session's), right after its OFFSETS frame was written.
    public var onEvent: (HostEvent) -> Void
    /// Connection news.
    public var onStatus: (HostStatus) -> Void
    /// The periodic snapshot for a live view.
    public var onRefresh: (HostSnapshot) -> Void

    public init(
        onEvent: @escaping (HostEvent) -> Void = { _ in },
        onStatus: @escaping (HostStatus) -> Void = { _ in },
        onRefresh: @escaping (HostSnapshot) -> Void = { _ in }
    ) {
        self.onEvent = onEvent
        self.onStatus = onStatus
        self.onRefresh = onRefresh
    }
}

/// Builds the session a run or a replay uses: the shipped art, the settings, the axes.
public func makeHostSession(settings: HostSettings, art: TiltAssets.Art) throws(Failure) -> HostSession {
    do {
        let engine = try TiltEngine(
            settings: settings.physics, geometry: art.tile.geometry, ribbonArt: art.ribbon.mask,
            converter: SampleConverter(mapping: settings.axes))
        return HostSession(engine: engine, hostTileID: art.tile.id)
    } catch {
        throw Failure(.badSettings, error.description)
    }
}

/// The live loop: port bytes → `HostSession` → an OFFSETS frame written the
/// moment its tick completes. Event-driven: one poll on the port and the stop
/// pipe; timeouts only for the view refresh and the hello deadline. Reusable
/// in-process (`tiltserial demo` runs it against an emulated board's pty).
public final class HostRunner {
    public let options: HostRunOptions
    public private(set) var session: HostSession
    var sinks: HostSinks
    var recorder: RecordingWriter?
    var startMicros: UInt64 = 0
    /// Host arrival time minus board time, smallest over the last second or two.
    var arrivalOffset = WindowedMinimum(windowMicros: 1_000_000)

    /// - Parameter art: the content tile and ribbon (default: the shipped assets).
    public init(options: HostRunOptions, sinks: HostSinks, art: TiltAssets.Art? = nil) throws(Failure) {
        self.options = options
        self.sinks = sinks
        let loaded: TiltAssets.Art
        if let art { loaded = art } else { loaded = try Self.loadArt() }
        session = try makeHostSession(settings: options.settings, art: loaded)
    }

    static func loadArt() throws(Failure) -> TiltAssets.Art {
        do { return try TiltAssets.load() } catch { throw Failure(.ioError, error.description) }
    }

    /// Runs until `stop` is woken (returns the summary) or a failure ends it.
    /// - Parameter transport: an already-open port (its name is only used for
    ///   messages; reconnects reopen `options.port`); nil opens `options.port`.
    public func run(transport given: (any SerialTransport)? = nil, stop: WakeUpPipe) throws(Failure) -> HostSummary {
        let start = MonotonicClock.micros()
        startMicros = start
        if let path = options.recordPath {
            recorder = try RecordingWriter(path: path, baud: UInt32(clamping: options.settings.baud))
        }
        defer { recorder?.finish() }
        var transport: any SerialTransport
        if let given { transport = given } else { transport = try open() }
        defer { transport.close() }
        try greet(transport)

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        let helloDeadline = start + UInt64(options.settings.helloTimeoutMicros)
        var nextRefresh = start + UInt64(options.refreshMicros)

        while true {
            var now = MonotonicClock.micros()
            if let dozeUntil = dozeDeadline(), dozeUntil > now + 1_000 {
                // Nothing that arrives before then can complete a tick: sleep on the stop pipe alone.
                if waitForWakeUp(stop.readEnd.rawValue, timeoutMicros: Int(min(dozeUntil, nextRefresh) - now)) { break }
                now = MonotonicClock.micros()
            }
            var wakeAt = nextRefresh
            if session.format == nil { wakeAt = min(wakeAt, helloDeadline) }
            let result: SerialWaitResult
            do {
                result = try transport.wait(timeoutMicros: Int(wakeAt > now ? wakeAt - now : 0), orWakeUp: stop.readEnd)
                if result == .readable { try drain(transport, buffer, start: start) }
            } catch .deviceGone {
                guard let back = try awaitReturn(of: transport, stop: stop) else { break }
                transport = back
                continue
            } catch {
                throw Failure(error)
            }
            if result == .wokenUp { break }

            if session.halted, let hello = session.hello {
                throw Failure(.protocolMismatch,
                    "\(options.port): the board speaks protocol version \(hello.protocolVersion), this tiltserial version \(HostSession.protocolVersion); "
                    + "reflash the board from Hardware/ (make -C Hardware upload) or upgrade tiltserial to match")
            }
            let later = MonotonicClock.micros()
            if session.format == nil && (later >= helloDeadline || session.detectionFailed) {
                throw noValidFrames()
            }
            if later >= nextRefresh {
                sinks.onRefresh(snapshot(since: start))
                nextRefresh = later + UInt64(options.refreshMicros)
            }
        }
        return HostSummary(durationMicros: MonotonicClock.micros() - start, counters: session.counters)
    }

    /// Monotonic time until which reading can wait: the next tick's board time
    /// mapped to host time with the smallest arrival offset seen lately (the
    /// least delayed sample, so late or batched chunks never push it later),
    /// minus the margin.
    func dozeDeadline() -> UInt64? {
        guard let margin = options.dozeMarginMicros, let next = session.nextTickMicros,
              let offset = arrivalOffset.minimum else { return nil }
        let due = Int64(bitPattern: next) &+ offset
        let deadline = due - Int64(margin)
        guard deadline > 0 else { return nil }
        return min(UInt64(deadline), MonotonicClock.micros() &+ dozeLimitMicros())
    }

    /// The longest doze that lets at most `dozeBufferBytes` pile up: SAMPLE
    /// frames are 23 bytes on the wire (docs/protocol.md); before a HELLO, or
    /// for text, the line's byte rate (baud / 10) bounds it.
    func dozeLimitMicros() -> UInt64 {
        let bytesPerSecond = session.hello.map { UInt64($0.sampleRateHz) * Self.sampleWireBytes }
            ?? UInt64(max(options.settings.baud / 10, 1))
        guard bytesPerSecond > 0 else { return .max }
        return UInt64(options.dozeBufferBytes) * 1_000_000 / bytesPerSecond
    }

    static let sampleWireBytes: UInt64 = 23

    /// The current state, for a view.
    func snapshot(since start: UInt64) -> HostSnapshot {
        HostSnapshot(
            elapsedMicros: MonotonicClock.micros() - start, counters: session.counters, format: session.format,
            hello: session.hello, lastTick: session.engine.lastTick, lastOffsets: session.lastOffsets)
    }

    func open() throws(Failure) -> any SerialTransport {
        do {
            let port = try SerialPort.open(
                path: options.port, baud: options.settings.baud, options: SerialOptions(dtr: options.settings.dtr))
            if let resolved = try? PortPath.resolve(options.port) {
                sinks.onStatus(.ftdiLatency(FTDILatency.lower(devicePath: resolved.resolved)))
            }
            return port
        } catch {
            throw Failure(error)
        }
    }

    /// HOST_HELLO, so a board that was not reset by DTR still introduces itself.
    func greet(_ transport: any SerialTransport) throws(Failure) {
        sinks.onStatus(.waitingForBoard(port: options.port))
        guard options.sendHostHello else { return }
        let hello = HostHelloFrame().encoded()
        var failure: SerialError?
        hello.withUnsafeBytes { bytes in
            do throws(SerialError) {
                try transport.write(bytes)
                recorder?.append(bytes, .toBoard, at: MonotonicClock.micros() - startMicros)
            } catch {
                failure = error
            }
        }
        switch failure {
        case nil, .deviceGone?: return  // a vanished device is reported by the next wait
        case let error?: throw Failure(error)
        }
    }

    /// Reads everything waiting, feeding the session chunk by chunk; each tick's
    /// OFFSETS is written as soon as the session produces it.
    func drain(_ transport: any SerialTransport, _ buffer: UnsafeMutableRawBufferPointer, start: UInt64) throws(SerialError) {
        // Bounded, so a flooding device cannot keep the loop from seeing Ctrl-C.
        for _ in 0..<16 {
            let count = try transport.read(into: buffer)
            if count == 0 { return }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            let arrival = MonotonicClock.micros()
            let hostMicros = arrival - start
            recorder?.append(chunk, .fromBoard, at: hostMicros)
            var writeError: SerialError?
            let sinks = self.sinks
            let recorder = self.recorder
            session.receive(chunk, atHostMicros: hostMicros) { event in
                if case .tick(_, let wire) = event, writeError == nil {
                    wire.withUnsafeBytes { bytes in
                        do throws(SerialError) {
                            try transport.write(bytes)
                            recorder?.append(bytes, .toBoard, at: hostMicros)
                        } catch {
                            writeError = error
                        }
                    }
                }
                // After the write: the board never waits on JSON, a view or --on-pull.
                sinks.onEvent(event)
            }
            if let writeError { throw writeError }
            if session.nextTickMicros != nil {
                arrivalOffset.add(Int64(bitPattern: arrival) &- Int64(bitPattern: session.lastSampleMicros), at: arrival)
            }
            if count < buffer.count { return }
        }
    }

    /// The recording stopped early because a write to its file failed (disk full).
    public var recordingFailed: Bool { recorder?.failed ?? false }

    /// After an unplug: close, say so, and reopen `options.port` every
    /// `reconnectPollMicros` until it opens (nil: stopped meanwhile).
    func awaitReturn(of transport: any SerialTransport, stop: WakeUpPipe) throws(Failure) -> (any SerialTransport)? {
        transport.close()
        sinks.onStatus(.deviceGone(port: options.port, reconnecting: options.settings.reconnect))
        guard options.settings.reconnect else {
            throw Failure(.deviceGone, "\(options.port): device gone (unplugged or closed); reconnect it and start again, or drop --no-reconnect to wait for it")
        }
        while !waitForWakeUp(stop.readEnd.rawValue, timeoutMicros: options.reconnectPollMicros) {
            guard let port = try? SerialPort.open(
                path: options.port, baud: options.settings.baud, options: SerialOptions(dtr: options.settings.dtr))
            else { continue }
            sinks.onStatus(.reconnected(port: options.port))
            session.linkRestarted()
            recorder?.append(UnsafeRawBufferPointer(start: nil, count: 0), .linkRestarted, at: MonotonicClock.micros() - startMicros)
            arrivalOffset = WindowedMinimum(windowMicros: arrivalOffset.windowMicros)
            try greet(port)
            return port
        }
        return nil
    }

    func noValidFrames() -> Failure {
        let seconds = Double(options.settings.helloTimeoutMicros) / 1_000_000
        let baud = options.settings.baud
        let hint: String = switch session.seen {
        case .nothing:
            "nothing arrived; is the sketch from Hardware/ flashed and running, and is this the board's port (`tiltserial list`)?"
        case .text:
            "text arrived but not in a known format; flash the sketch from Hardware/, or for i2cdevlib's MPU6050_raw use --baud 38400"
        case .binary:
            "binary bytes arrived but no valid frame; check the baud rate (now \(baud); the sketch uses 115200) or reflash Hardware/"
        }
        return Failure(.noValidFrames, "\(options.port): no valid frames within \(seconds) s (--hello-timeout): \(hint)")
    }
}

/// The minimum of values added over the current and the previous window
/// (so it follows slow drift and forgets old values within two windows).
struct WindowedMinimum {
    let windowMicros: UInt64
    var current: Int64?
    var previous: Int64?
    var windowStart: UInt64 = 0

    init(windowMicros: UInt64) { self.windowMicros = windowMicros }

    mutating func add(_ value: Int64, at now: UInt64) {
        if now - windowStart >= windowMicros {
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
