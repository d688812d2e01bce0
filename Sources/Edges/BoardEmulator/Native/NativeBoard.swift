import FirmwareCore
import Foundation
import SerialIO
import TiltAssets
import TiltCore
import TiltDisplay
import WireProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The board without an AVR: the firmware's behaviour (`NativeFirmware`, the
/// firmware's own C) on a SerialIO pseudo-terminal, with a Swift sample
/// schedule and screen. HELLO at power-on and on HOST_HELLO/CONFIGURE
/// (sequence restart), one SAMPLE per period stamped with exact multiples of
/// the period in board time, PONG, and a screen drawn from OFFSETS, DRAWER and
/// PIN with `ScreenRenderer` (the firmware's status screen without them). Faults can be
/// injected and are counted exactly.
///
/// One `BoardThread`, paced by `BoardPacer` to wall time × factor (no busy
/// spin), or free-running: as fast as the host reads, never dropping. Paced, a
/// board whose host does not read drops whole SAMPLE frames like a full UART
/// buffer. All public methods are safe from any thread.
///
/// The board composes its parts, one job each: `NativeInput` (the host's
/// bytes into payloads, decoded once by the firmware's receiver),
/// `NativeFirmware` (what the firmware does with them), `NativeClock` (board
/// time, the sample schedule, the pace), `NativeSensor` (the samples),
/// `NativeDisplay` (the display pipeline, READY) and `NativeWire` (the output).
public final class NativeBoard: @unchecked Sendable {
    /// What the board was built with.
    public let configuration: Configuration
    let tileID: UInt16

    // Board state: guarded by `lock`, touched by the board thread and commands.
    private let lock = NSLock()
    private var terminal: PtyLink?
    /// Held off until a host first opens the pty (`holdUntilOpened`).
    private var waitingForHost: Bool
    private var plugged = true
    private var stopRequested = false
    private var input = NativeInput()
    private var firmware: NativeFirmware
    private var clock: NativeClock
    private var sensor: NativeSensor
    private var display: NativeDisplay
    private var wire: NativeWire
    private var actions: [NativeFirmware.Action] = []
    private var counts = NativeBoardStatus()

    // Published: guarded by `published`.
    private let published = NSCondition()
    private var status = NativeBoardStatus()
    private var speedAnchor: (wall: UInt64, life: UInt64) = (0, 0)

    private let thread: BoardThread

    static let hostTimeoutMicros = UInt64(NativeFirmware.hostTimeoutMillis) * 1000

    /// Opens the pty (and link); the board does not run until `start()`.
    public init(_ configuration: Configuration) throws(NativeBoardError) {
        guard (1...65_535).contains(configuration.sampleRateHz) else {
            throw .sampleRate(configuration.sampleRateHz)
        }
        let art: TiltAssets.Art
        if let given = configuration.art {
            art = given
        } else {
            do { art = try TiltAssets.load() } catch { throw .art(error) }
        }
        self.configuration = configuration
        tileID = art.tile.id
        display = NativeDisplay(renderer: art.renderer)
        sensor = NativeSensor(motion: configuration.motionSource)
        firmware = NativeFirmware(version: configuration.firmwareVersion)
        wire = NativeWire(faults: configuration.faults, bufferBytes: configuration.outputBufferBytes)
        clock = NativeClock(pace: configuration.pace, sampleLimit: configuration.sampleLimit)
        waitingForHost = configuration.holdUntilOpened
        do {
            thread = try BoardThread()
            terminal = try PtyLink(linkPath: configuration.linkPath, keepSlave: Self.keepSlave(configuration, held: waitingForHost))
        } catch {
            throw .link(BoardLinkError(error))
        }
        counts.serialPath = terminal?.slavePath
        counts.sampleRateHz = configuration.sampleRateHz
        counts.screen = firmware.statusScreen()
        status = counts
    }

    deinit { stop() }

    // MARK: Lifecycle

    /// Powers the board on (HELLO) and starts its thread, or, held until a host
    /// opens the pty, starts the thread only. Does nothing if already started.
    public func start() {
        lock.lock()
        defer { lock.unlock() }
        guard !thread.isStarted, !stopRequested else { return }
        if waitingForHost {
            counts.state = .waitingForHost
            publishLocked()
        } else {
            powerOnAndAnchor()
        }
        thread.start(name: "NativeBoard") { [weak self] in self?.iterate() ?? false }
    }

    /// Stops the thread, closes the pty and removes the link. Idempotent.
    public func stop() {
        lock.lock()
        stopRequested = true
        lock.unlock()
        thread.wakeUp()
        thread.join()
        lock.lock()
        terminal?.close()
        terminal?.removeLink()
        terminal = nil
        counts.state = .stopped
        counts.serialPath = nil
        publishLocked()
        lock.unlock()
    }

    // MARK: Control

    /// Presses reset: HELLO, sequence and board time restart, the waiting screen.
    public func reset() {
        command { board in board.powerOn(wallNanos: MonotonicClock.nanos()) }
    }

    /// Pulls the cable: the pty closes (hosts read "device gone"), the board loses power.
    public func unplug() {
        command { board in
            guard board.plugged else { return }
            board.plugged = false
            board.terminal?.close()
            board.terminal = nil
            board.wire.clear()
            board.counts.state = .unplugged
            board.counts.serialPath = nil
        }
    }

    /// Plugs it back in: a new pty (the link follows it) and a power-on. Returns the new path.
    @discardableResult
    public func plugIn() throws(BoardLinkError) -> String {
        lock.lock()
        defer {
            publishLocked()
            lock.unlock()
            thread.wakeUp()
        }
        guard !stopRequested else { throw .stopped }
        if plugged, let path = terminal?.slavePath { return path }
        do {
            terminal = try PtyLink(linkPath: configuration.linkPath, keepSlave: Self.keepSlave(configuration, held: false))
        } catch {
            throw BoardLinkError(error)
        }
        plugged = true
        waitingForHost = false  // a replugged board is powered by the cable, host or not
        counts.serialPath = terminal?.slavePath
        counts.state = thread.isStarted ? .running : .idle
        if thread.isStarted { powerOn(wallNanos: MonotonicClock.nanos()) }
        return terminal!.slavePath
    }

    /// Pauses output for `milliseconds` of wall time (a stalled USB link):
    /// frames queue meanwhile, and SAMPLE frames that do not fit are dropped.
    public func stall(milliseconds: Int) {
        command { board in
            board.clock.stallUntilNanos = MonotonicClock.nanos() + UInt64(max(0, milliseconds)) * 1_000_000
            board.wire.injector.countStall()
        }
    }

    /// Replaces what the sensor feels from the next sample on.
    public func setMotionSource(_ source: any MotionSource) {
        command { board in board.sensor.motion = source }
    }

    /// Replaces the fault settings (the generator restarts from the new seed).
    public func setFaults(_ spec: FaultSpec) {
        command { board in board.wire.injector.setSpec(spec) }
    }

    /// Changes the pace from now on; also restarts the speed report.
    public func setPace(_ pace: BoardPace) {
        command { board in
            let now = MonotonicClock.nanos()
            board.clock.setPace(pace, wallNanos: now)
            board.published.withLock { board.speedAnchor = (now, board.clock.lifetime) }
        }
    }

    // MARK: Observation

    /// The latest published status.
    public var currentStatus: NativeBoardStatus { published.withLock { status } }

    /// The pty slave path a host opens now; nil while unplugged or stopped.
    public var serialPath: String? { published.withLock { status.serialPath } }

    /// The screen as last drawn.
    public var screen: Screen { published.withLock { status.screen } }

    /// Waits until `condition` holds for the published status or `timeout` passes
    /// (wall time). Returns the status that satisfied it, or nil. `condition` runs
    /// under the status lock: it must not call the board.
    public func waitFor(timeout: Duration, _ condition: (NativeBoardStatus) -> Bool) -> NativeBoardStatus? {
        published.waitForValue(timeout: timeout) { condition(status) ? status : nil }
    }

    /// Board seconds per wall second since power-on or the last `setPace`.
    public func speedReport() -> BoardSpeedReport {
        published.withLock {
            BoardSpeedReport(boardMicros: status.lifetimeMicros, wallNanos: MonotonicClock.nanos(),
                           since: (speedAnchor.wall, speedAnchor.life))
        }
    }

    // MARK: Board thread

    /// One step: read the host, take the samples that are due, write, then wait
    /// for the next sample, the host, room to write, or a command.
    private func iterate() -> Bool {
        lock.lock()
        if stopRequested {
            lock.unlock()
            return false
        }
        guard plugged, let terminal else {
            publishLocked()
            lock.unlock()
            thread.wait(fd: -1, events: 0, timeoutMicros: 100_000)
            return true
        }
        if waitingForHost && !hostOpened(terminal) {
            lock.unlock()
            thread.wait(fd: -1, events: 0, timeoutMicros: Self.heldPollMicros)
            return true
        }
        let now = MonotonicClock.nanos()
        followHost(terminal, wallNanos: now)
        readHost(terminal)
        var timeout = takeSamples(wallNanos: now)
        _ = firmware.hostTimedOut(nowMicros: clock.boardMicros)
        stepDisplay()
        if clock.freeRunning && clock.limitReached {
            // Free-running with every sample sent: board time moves on to the
            // display's transfers, so the frame on its way still ends.
            while let end = display.transferEnd {
                clock.advance(to: end)
                stepDisplay(sensor: false)
            }
        }
        let stalled = clock.stalled(at: now)
        if !stalled { counts.bytesWritten += UInt64(wire.flush(to: terminal)) }
        if clock.freeRunning && !stalled && !clock.limitReached {
            // Free-running: go on at once while there is room, else wait for the reader (POLLOUT).
            timeout = listened && wire.room > WireFormat.maxEncodedCount ? 0 : 100_000
        }
        if stalled { timeout = min(timeout, Int((clock.stallUntilNanos - now) / 1000) + 1) }
        let fd = terminal.fd
        let events = Int16(POLLIN) | (wire.pending > 0 && !stalled ? Int16(POLLOUT) : 0)
        publishLocked()
        lock.unlock()
        thread.wait(fd: fd, events: events, timeoutMicros: timeout)
        return true
    }

    /// While held, how often the thread looks for the first host (wall µs).
    static let heldPollMicros = 10_000

    /// How the link holds its slave. Reset on connect: never, so the link sees
    /// each host come and go. Held: only once a host opened it (until then the
    /// master polls hung up, which is how the first host is seen). Else always,
    /// so output queues in the kernel from the start.
    static func keepSlave(_ configuration: Configuration, held: Bool) -> PtyLink.KeepSlave {
        configuration.resetOnConnect ? .never : held ? .afterFirstClient : .always
    }

    /// A host came or went (reset on connect only): one that opens the port
    /// resets the board, as DTR resets an Uno; one that leaves takes nothing
    /// queued with it (the link flushed its side).
    private func followHost(_ terminal: PtyLink, wallNanos now: UInt64) {
        switch terminal.poll() {
        case .opened, .visited:
            wire.clear()
            powerOn(wallNanos: now)
        case .closed:
            wire.clear()
        case .none:
            break
        }
    }

    /// Whether what the board sends now can reach a host: plugged, and (reset
    /// on connect) a host has the port open.
    private var listened: Bool {
        plugged && (!configuration.resetOnConnect || terminal?.clientConnected == true)
    }

    /// Held until now: true (and powered on) once a host has the slave open.
    private func hostOpened(_ terminal: PtyLink) -> Bool {
        guard [.opened, .visited].contains(terminal.poll()) else { return false }
        waitingForHost = false
        powerOnAndAnchor()
        publishLocked()
        return true
    }

    /// Power-on at start (or at the first host), with the speed report anchored there.
    private func powerOnAndAnchor() {
        let now = MonotonicClock.nanos()
        powerOn(wallNanos: now)
        counts.state = .running
        published.withLock { speedAnchor = (now, clock.lifetime) }
    }

    /// Power-on or reset: the firmware's setup().
    private func powerOn(wallNanos now: UInt64) {
        firmware.powerOn(rateHz: configuration.sampleRateHz)
        clock.powerOn(period: firmware.periodMicros, wallNanos: now)
        input.reset()
        counts.lastOffsets = nil
        counts.boots += 1
        counts.sampleRateHz = firmware.sampleRateHz
        display.reset(at: clock.lifetime)
        stepDisplay()
        sendHello()
    }

    /// Up to eight reads; each frame's actions (which read the firmware's state)
    /// happen before the next frame is handled, as on the board.
    private func readHost(_ terminal: PtyLink) {
        for _ in 0..<8 {
            let came = input.read(from: terminal) { frame in
                firmware.handle(frame, nowMicros: clock.boardMicros) { actions.append($0) }
                for action in actions { perform(action) }
                actions.removeAll(keepingCapacity: true)
            }
            if !came { return }
            counts.input = input.counters
            stepDisplay()
        }
    }

    /// Does what the firmware asked for.
    private func perform(_ action: NativeFirmware.Action) {
        switch action {
        case .offsets(let offsets):
            counts.offsetsReceived += 1
            counts.lastOffsets = offsets
        case .ping:
            counts.pingsReceived += 1
        case .sendPong(let token):
            if wire.queue(PongFrame(token: token), isSample: false, must: true, lifetimeMicros: clock.lifetime) {
                counts.framesSent += 1
            }
            counts.pongsSent += 1
        case .sendHello:
            sendHello()
        case .sendParts:
            if wire.queue(firmware.parts, isSample: false, must: true, lifetimeMicros: clock.lifetime) {
                counts.framesSent += 1
            }
        case .reconfigured:
            // The next sample falls on the next multiple of the new period.
            clock.reconfigured(period: firmware.periodMicros)
            counts.sampleRateHz = firmware.sampleRateHz
        }
    }

    /// step_display() up to now: the display side in board time, its READY
    /// frames on the wire, the glass in the status.
    private func stepDisplay(sensor: Bool = true) {
        let changed = display.step(clock, sensor: sensor, firmware: &firmware) { ready in
            if listened && wire.queue(ready, isSample: false, must: false, lifetimeMicros: clock.lifetime) {
                counts.framesSent += 1
            }
        }
        display.report(into: &counts, glassChanged: changed, redrawDue: firmware.redrawDue)
    }

    /// Emits every sample due by now; returns µs to wait before the next one.
    private func takeSamples(wallNanos now: UInt64) -> Int {
        let allowed = clock.allowedLifetime(wallNanos: now)
        var budget = 1024
        while budget > 0 {
            if clock.limitReached { break }
            if let allowed, clock.nextSampleLifetime > allowed { break }
            if allowed == nil && (!listened || wire.room < WireFormat.maxEncodedCount + 1 || clock.stalled(at: now)) {
                return 100_000  // free-running: wait for a reader (a host, POLLOUT) or the stall's end
            }
            clock.moveToNextSample()
            stepDisplay()  // the display's transfers up to the sample, which then takes the bus
            emitSample()
            clock.sampleTaken(period: firmware.periodMicros)
            budget -= 1
        }
        if budget == 0 { return 0 }
        if let allowed {
            clock.advance(to: allowed)
            if clock.limitReached { return 100_000 }
            // Above 1 kHz, wake once a millisecond and send what is due (like a USB
            // adapter's 1 ms frames) rather than once per sample; times stay exact.
            let wait = clock.microsUntilNextSample(wallNanos: now)
            return min(100_000, firmware.periodMicros < 1000 ? max(wait, 1000) : wait)
        }
        if clock.limitReached { return 100_000 }
        return 0
    }

    private func emitSample() {
        let frame = sensor.sample(atLifetime: clock.lifetime, boardMicros: clock.nextSample,
                                  accelSelect: firmware.accelSelect, gyroSelect: firmware.gyroSelect)
        if listened && wire.queue(frame, isSample: true, must: false, lifetimeMicros: clock.lifetime) {
            counts.framesSent += 1
            counts.samplesSent += 1
        } else {
            counts.samplesDroppedUnread += 1
        }
    }

    private func sendHello() {
        if listened && wire.queue(wire: firmware.hello(tileID: tileID, status: 3), isSample: false, must: true, lifetimeMicros: clock.lifetime) {
            counts.framesSent += 1
        }
        counts.hellosSent += 1
        sensor.restartNumbering()
        firmware.helloSent()
    }

    private func publishLocked() {
        counts.lifetimeMicros = clock.lifetime
        counts.boardMicros = clock.boardMicros
        counts.faults = wire.injector.counters
        published.withLock { status = counts }
        published.broadcast()
    }

    private func command(_ body: (NativeBoard) -> Void) {
        lock.lock()
        if !stopRequested { body(self) }
        publishLocked()
        lock.unlock()
        thread.wakeUp()
    }
}
