import CSerialShims
import Foundation
import SerialIO
import TiltAssets
import TiltCore
import TiltDisplay
import WireProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A board model in Swift that speaks protocol v1 like the firmware
/// (Hardware/tiltserial/tiltserial.ino) on a pseudo-terminal, without simulating
/// an AVR: HELLO at power-on and on HOST_HELLO/CONFIGURE (sequence restart), one
/// SAMPLE per period stamped with exact multiples of the period in board time,
/// PONG, and a screen drawn from OFFSETS, DRAWER and PIN with `FrameRenderer`
/// (the firmware's waiting screen without them). Faults can be injected and are counted exactly.
///
/// One thread per board, paced to wall time × factor by poll timeouts (no busy
/// spin), or free-running: as fast as the host reads, never dropping. Paced, a
/// board whose host does not read drops whole SAMPLE frames like a full UART
/// buffer. All public methods are safe from any thread.
public final class NativeBoard: @unchecked Sendable {
    public let configuration: Configuration
    let renderer: FrameRenderer
    let tileID: UInt16

    // Board state: guarded by `lock`, touched by the board thread and commands.
    private let lock = NSLock()
    private var terminal: PseudoTerminal?
    /// Held off until a host first opens the pty (`holdUntilOpened`); then this
    /// descriptor keeps the slave open, as `keepSlaveOpen` does otherwise.
    private var waitingForHost: Bool
    private var slaveKeeper: CInt = -1
    private var plugged = true
    private var stopRequested = false
    private var motion: any MotionSource
    private var injector: FaultInjector
    private var pacer: NativePacer
    private var inputDecoder = FrameDecoder()
    private var lifetime: UInt64 = 0
    private var boot: UInt64 = 0
    private var periodMicros: UInt64 = 10_000
    private var rateHz = 100
    private var nextSampleBoard: UInt64 = 0
    private var samplesSinceBoot: UInt64 = 0
    private var sequence: UInt8 = 0
    private var accelSelect: UInt8 = 0
    private var gyroSelect: UInt8 = 0
    private var hostLive = false
    private var lastOffsetsBoard: UInt64 = 0
    private var stallUntilNanos: UInt64 = 0
    private var output: [UInt8] = []
    private var outputHead = 0
    private var scratch: [UInt8] = []
    private var readBuffer = [UInt8](repeating: 0, count: 1024)
    private var counts = NativeBoardStatus()
    private var screenDirty = true
    /// The drawer and pins DRAWER and PIN frames set (the firmware's scene).
    private var drawerScene = DrawerScene()

    // Published: guarded by `published`.
    private let published = NSCondition()
    private var status = NativeBoardStatus()
    private var speedAnchor: (wall: UInt64, life: UInt64) = (0, 0)

    private let wake: WakeUpPipe
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    static let hostTimeoutMicros: UInt64 = 1_000_000
    static let hardOutputLimit = 1 << 16

    /// Opens the pty (and link); the board does not run until `start()`.
    public init(_ configuration: Configuration) throws(NativeBoardError) {
        guard (1...65_535).contains(configuration.sampleRateHz) else {
            throw .configuration("sample rate \(configuration.sampleRateHz) Hz: use 1 to 65535")
        }
        let art: TiltAssets.Art
        if let given = configuration.art {
            art = given
        } else {
            do { art = try TiltAssets.load() } catch { throw .configuration(error.description) }
        }
        self.configuration = configuration
        renderer = art.renderer
        tileID = art.tile.id
        motion = configuration.motionSource
        injector = FaultInjector(spec: configuration.faults)
        pacer = NativePacer(pace: configuration.pace)
        waitingForHost = configuration.holdUntilOpened
        do {
            wake = try WakeUpPipe()
            // Held: the slave is not kept open, so the master polls hung up until a host opens it.
            terminal = try PseudoTerminal.open(keepSlaveOpen: !waitingForHost, link: configuration.linkPath)
        } catch {
            throw Self.terminalError(error)
        }
        counts.serialPath = terminal?.slavePath
        counts.sampleRateHz = configuration.sampleRateHz
        WaitingScreen.render(version: configuration.firmwareVersion, into: &counts.screen)
        status = counts
    }

    deinit { stop() }

    // MARK: Lifecycle

    /// Powers the board on (HELLO) and starts its thread. Does nothing if already started.
    public func start() {
        lock.lock()
        defer { lock.unlock() }
        guard thread == nil, !stopRequested else { return }
        if waitingForHost {
            counts.state = .waitingForHost
            publishLocked()
        } else {
            let now = MonotonicClock.nanos()
            powerOn(wallNanos: now)
            counts.state = .running
            published.withLock { speedAnchor = (now, lifetime) }
        }
        let finished = finished
        let thread = Thread { [weak self] in
            while let board = self, board.iterate() {}
            finished.signal()
        }
        thread.name = "NativeBoard"
        self.thread = thread
        thread.start()
    }

    /// Stops the thread, closes the pty and removes the link. Idempotent.
    public func stop() {
        lock.lock()
        let wasRunning = thread != nil && !stopRequested
        let onBoardThread = thread.map { $0 == Thread.current } ?? false
        stopRequested = true
        lock.unlock()
        wake.wake()
        if wasRunning && !onBoardThread { finished.wait() }
        lock.lock()
        terminal?.close()
        terminal = nil
        releaseSlaveKeeper()
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
            board.releaseSlaveKeeper()
            board.output.removeAll(keepingCapacity: true)
            board.outputHead = 0
            board.counts.state = .unplugged
            board.counts.serialPath = nil
        }
    }

    /// Plugs it back in: a new pty (the link follows it) and a power-on. Returns the new path.
    @discardableResult
    public func plugIn() throws(NativeBoardError) -> String {
        lock.lock()
        defer {
            publishLocked()
            lock.unlock()
            wake.wake()
        }
        guard !stopRequested else { throw .pseudoTerminal("the board is stopped; make a new NativeBoard") }
        if plugged, let path = terminal?.slavePath { return path }
        do {
            terminal = try PseudoTerminal.open(keepSlaveOpen: true, link: configuration.linkPath)
        } catch {
            throw Self.terminalError(error)
        }
        plugged = true
        waitingForHost = false  // a replugged board is powered by the cable, host or not
        counts.serialPath = terminal?.slavePath
        counts.state = thread == nil ? .idle : .running
        if thread != nil { powerOn(wallNanos: MonotonicClock.nanos()) }
        return terminal!.slavePath
    }

    /// Pauses output for `milliseconds` of wall time (a stalled USB link):
    /// frames queue meanwhile, and SAMPLE frames that do not fit are dropped.
    public func stall(milliseconds: Int) {
        command { board in
            board.stallUntilNanos = MonotonicClock.nanos() + UInt64(max(0, milliseconds)) * 1_000_000
            board.injector.countStall()
        }
    }

    /// Replaces what the sensor feels from the next sample on.
    public func setMotionSource(_ source: any MotionSource) {
        command { board in board.motion = source }
    }

    /// Replaces the fault settings (the generator restarts from the new seed).
    public func setFaults(_ spec: FaultSpec) {
        command { board in board.injector.setSpec(spec) }
    }

    /// Changes the pace from now on; also restarts the speed report.
    public func setPace(_ pace: AVRPace) {
        command { board in
            let now = MonotonicClock.nanos()
            board.pacer.anchor(life: board.lifetime, wallNanos: now, pace: pace)
            board.published.withLock { board.speedAnchor = (now, board.lifetime) }
        }
    }

    // MARK: Observation

    /// The latest published status.
    public var currentStatus: NativeBoardStatus { published.withLock { status } }

    /// The pty slave path a host opens now; nil while unplugged or stopped.
    public var serialPath: String? { published.withLock { status.serialPath } }

    /// The screen as last drawn.
    public var screen: TiltDisplay.Frame { published.withLock { status.screen } }

    /// Waits until `condition` holds for the published status or `timeout` passes
    /// (wall time). Returns the status that satisfied it, or nil. `condition` runs
    /// under the status lock: it must not call the board.
    public func waitFor(timeout: Duration, _ condition: (NativeBoardStatus) -> Bool) -> NativeBoardStatus? {
        published.waitForValue(timeout: timeout) { condition(status) ? status : nil }
    }

    /// Board seconds per wall second since `start()` or the last `setPace`.
    public func speedReport() -> AVRSpeedReport {
        published.withLock {
            AVRSpeedReport(boardMicros: status.lifetimeMicros, wallNanos: MonotonicClock.nanos(),
                           since: (speedAnchor.wall, speedAnchor.life))
        }
    }

    // MARK: Board thread

    /// One step: read the host, take the samples that are due, write, then wait in
    /// poll() for the next sample, the host, room to write, or a command.
    private func iterate() -> Bool {
        lock.lock()
        if stopRequested {
            lock.unlock()
            return false
        }
        guard plugged, let terminal else {
            publishLocked()
            lock.unlock()
            waitForWake(fd: -1, events: 0, timeoutMicros: 100_000)
            return true
        }
        if waitingForHost && !hostOpened(terminal) {
            lock.unlock()
            waitForWake(fd: -1, events: 0, timeoutMicros: Self.heldPollMicros)
            return true
        }
        let now = MonotonicClock.nanos()
        readHost(terminal)
        var timeout = takeSamples(wallNanos: now)
        checkHostTimeout()
        flushOutput(terminal, wallNanos: now)
        let pending = output.count > outputHead
        let stalled = now < stallUntilNanos
        if pacer.pace.factor == nil && !stalled && !limitReached {
            // Free-running: go on at once while there is room, else wait for the reader (POLLOUT).
            timeout = configuration.outputBufferBytes - (output.count - outputHead) > WireFormat.maxEncodedCount ? 0 : 100_000
        }
        if stalled { timeout = min(timeout, Int((stallUntilNanos - now) / 1000) + 1) }
        let fd = terminal.master.fileDescriptor.rawValue
        publishLocked()
        lock.unlock()
        let events = Int16(POLLIN) | (pending && !stalled ? Int16(POLLOUT) : 0)
        waitForWake(fd: fd, events: events, timeoutMicros: timeout)
        return true
    }

    /// While held, how often the thread looks for the first host (wall µs).
    static let heldPollMicros = 10_000

    /// Held until now: true (and powered on) once a host has the slave open.
    private func hostOpened(_ terminal: PseudoTerminal) -> Bool {
        var descriptor = pollfd(fd: terminal.master.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, 0)
        guard descriptor.revents & Int16(POLLHUP) == 0 else { return false }
        // From now on keep the slave open ourselves, as an unheld board does.
        slaveKeeper = open(terminal.slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        waitingForHost = false
        let now = MonotonicClock.nanos()
        powerOn(wallNanos: now)
        counts.state = .running
        published.withLock { speedAnchor = (now, lifetime) }
        publishLocked()
        return true
    }

    private func releaseSlaveKeeper() {
        if slaveKeeper >= 0 { Glibc.close(slaveKeeper) }
        slaveKeeper = -1
    }

    /// Power-on or reset: the firmware's setup().
    private func powerOn(wallNanos now: UInt64) {
        boot = lifetime
        rateHz = configuration.sampleRateHz
        periodMicros = Self.period(rateHz)
        nextSampleBoard = periodMicros
        samplesSinceBoot = 0
        accelSelect = 0
        gyroSelect = 0
        hostLive = false
        inputDecoder = FrameDecoder()
        counts.lastOffsets = nil
        counts.boots += 1
        counts.sampleRateHz = rateHz
        pacer.anchor(life: lifetime, wallNanos: now)
        showWaitingScreen()
        sendHello()
    }

    private func readHost(_ terminal: PseudoTerminal) {
        for _ in 0..<8 {
            let n: Int
            do {
                n = try readBuffer.withUnsafeMutableBytes { try terminal.master.read(into: $0) }
            } catch {
                return
            }
            if n == 0 { return }
            readBuffer.withUnsafeBytes { bytes in
                inputDecoder.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<n])) { frame in handle(frame) }
            }
            counts.input = inputDecoder.counters
        }
    }

    /// The firmware's handle_payload().
    private func handle(_ frame: DecodedFrame) {
        switch frame {
        case .offsets(let offsets):
            counts.offsetsReceived += 1
            let changed = !hostLive || counts.lastOffsets.map { !Self.sameView($0, offsets) } ?? true
            counts.lastOffsets = offsets
            hostLive = true
            lastOffsetsBoard = lifetime - boot
            if changed { redrawView() }
        case .drawer(let drawer):
            let before = drawerScene
            drawerScene.setDrawer(
                height: drawer.height, shown: drawer.shown, scroll: drawer.scroll, current: drawer.current,
                dragItem: drawer.dragItem, dragLeft: drawer.dragLeft, dragTop: drawer.dragTop, pinCount: drawer.pinCount)
            if hostLive && drawerScene != before { redrawView() }
        case .pin(let pin):
            guard Int(pin.slot) < DrawerScene.pinSlots else { break }
            let before = drawerScene
            drawerScene[pin: Int(pin.slot)] = ScenePin(item: pin.item, x: pin.x, y: pin.y)
            if hostLive && drawerScene != before { redrawView() }
        case .ping(let ping):
            counts.pingsReceived += 1
            send(PongFrame(token: ping.token), isSample: false, must: true)
            counts.pongsSent += 1
        case .hostHello:
            sendHello()
        case .configure(let configure):
            let divider = Self.firmwareDivider(Int(configure.sampleRateHz))
            rateHz = 1000 / (1 + divider)
            periodMicros = UInt64(1 + divider) * 1000
            if configure.accelFullScaleSelect <= 3 { accelSelect = configure.accelFullScaleSelect }
            if configure.gyroFullScaleSelect <= 3 { gyroSelect = configure.gyroFullScaleSelect }
            let now = lifetime - boot
            nextSampleBoard = (now / periodMicros + 1) * periodMicros
            counts.sampleRateHz = rateHz
            sendHello()
        case .hello, .sample, .pong:
            break  // board → host frames: skipped, like the firmware
        }
    }

    /// The last OFFSETS with the drawer scene.
    private func redrawView() {
        guard let offsets = counts.lastOffsets else { return }
        renderer.render(viewportX: offsets.viewportX, viewportY: offsets.viewportY, ribbonX: offsets.ribbonX,
                        ribbonBottom: offsets.ribbonBottom, scene: drawerScene, into: &counts.screen)
        counts.showsWaitingScreen = false
        counts.screenGeneration += 1
    }

    static func sameView(_ a: OffsetsFrame, _ b: OffsetsFrame) -> Bool {
        a.viewportX == b.viewportX && a.viewportY == b.viewportY && a.ribbonX == b.ribbonX && a.ribbonBottom == b.ribbonBottom
    }

    private var limitReached: Bool {
        configuration.sampleLimit.map { samplesSinceBoot >= $0 } ?? false
    }

    /// Emits every sample due by now; returns µs to wait before the next one.
    private func takeSamples(wallNanos now: UInt64) -> Int {
        let allowed = pacer.allowedLife(wallNanos: now, next: boot + nextSampleBoard)
        var budget = 1024
        while budget > 0 {
            if let limit = configuration.sampleLimit, samplesSinceBoot >= limit { break }
            let due = boot + nextSampleBoard
            if let allowed, due > allowed { break }
            let room = configuration.outputBufferBytes - (output.count - outputHead)
            if allowed == nil && (room < WireFormat.maxEncodedCount + 1 || now < stallUntilNanos) {
                return 100_000  // free-running: wait for the reader (POLLOUT) or the stall's end
            }
            lifetime = due
            emitSample()
            nextSampleBoard += periodMicros
            budget -= 1
        }
        if budget == 0 { return 0 }
        if let allowed {
            lifetime = max(lifetime, allowed)
            if let limit = configuration.sampleLimit, samplesSinceBoot >= limit { return 100_000 }
            // Above 1 kHz, wake once a millisecond and send what is due (like a USB
            // adapter's 1 ms frames) rather than once per sample; times stay exact.
            let wait = pacer.microsUntil(life: boot + nextSampleBoard, wallNanos: now)
            return min(100_000, periodMicros < 1000 ? max(wait, 1000) : wait)
        }
        if let limit = configuration.sampleLimit, samplesSinceBoot >= limit { return 100_000 }
        return 0
    }

    private func emitSample() {
        var raw = motion.sample(atMicros: lifetime)
        if accelSelect > 0 {
            raw.accel = Axes3(x: raw.accel.x >> accelSelect, y: raw.accel.y >> accelSelect, z: raw.accel.z >> accelSelect)
        }
        if gyroSelect > 0 {
            raw.gyro = Axes3(x: raw.gyro.x >> gyroSelect, y: raw.gyro.y >> gyroSelect, z: raw.gyro.z >> gyroSelect)
        }
        let frame = SampleFrame(sequence: sequence, boardTime: UInt32(truncatingIfNeeded: nextSampleBoard) & 0xFF_FFFF, raw: raw)
        sequence &+= 1  // like the firmware: a dropped sample still uses its number
        samplesSinceBoot += 1
        if send(frame, isSample: true, must: false) {
            counts.samplesSent += 1
        } else {
            counts.samplesDroppedUnread += 1
        }
    }

    private func sendHello() {
        // Like the firmware: every HELLO starts from a clean drawer.
        if drawerScene != .empty {
            drawerScene = .empty
            if hostLive { redrawView() }
        }
        let version = configuration.firmwareVersion
        let hello = HelloFrame(
            protocolVersion: WireFormat.version, firmwareMajor: version.major, firmwareMinor: version.minor,
            firmwarePatch: version.patch, accelFullScaleSelect: accelSelect, gyroFullScaleSelect: gyroSelect,
            sampleRateHz: UInt16(clamping: rateHz), displayWidth: UInt8(TiltDisplay.Frame.width), displayHeight: UInt8(TiltDisplay.Frame.height),
            contentTileID: tileID, status: 3)
        send(hello, isSample: false, must: true)
        counts.hellosSent += 1
        sequence = 0
    }

    /// Queues one frame through the fault injector. Frames that are not a must
    /// go only if they fit the buffer whole (the firmware's rule).
    @discardableResult
    private func send(_ frame: some WireFrame, isSample: Bool, must: Bool) -> Bool {
        scratch.removeAll(keepingCapacity: true)
        frame.encode(into: &scratch)
        let queued = output.count - outputHead
        let limit = must ? Self.hardOutputLimit : configuration.outputBufferBytes
        guard plugged, queued + scratch.count <= limit else { return false }
        _ = injector.emit(scratch, isSample: isSample, lifetimeMicros: lifetime, into: &output)
        counts.framesSent += 1
        return true
    }

    private func flushOutput(_ terminal: PseudoTerminal, wallNanos now: UInt64) {
        guard output.count > outputHead, now >= stallUntilNanos else { return }
        let written: Int
        do {
            written = try output.withUnsafeBytes { bytes in
                try terminal.master.writeWithoutWaiting(UnsafeRawBufferPointer(rebasing: bytes[outputHead...]))
            }
        } catch {
            return
        }
        outputHead += written
        counts.bytesWritten += UInt64(written)
        if outputHead == output.count {
            output.removeAll(keepingCapacity: true)
            outputHead = 0
        } else if outputHead > 16_384 {
            output.removeFirst(outputHead)
            outputHead = 0
        }
    }

    private func checkHostTimeout() {
        if hostLive && (lifetime - boot) - lastOffsetsBoard > Self.hostTimeoutMicros {
            hostLive = false
            drawerScene = .empty  // a quiet host: the next one starts from a clean drawer
            showWaitingScreen()
        }
    }

    private func showWaitingScreen() {
        WaitingScreen.render(version: configuration.firmwareVersion, into: &counts.screen)
        counts.showsWaitingScreen = true
        counts.screenGeneration += 1
    }

    private func publishLocked() {
        counts.lifetimeMicros = lifetime
        counts.boardMicros = lifetime - boot
        counts.faults = injector.counters
        published.withLock { status = counts }
        published.broadcast()
    }

    private func command(_ body: (NativeBoard) -> Void) {
        lock.lock()
        if !stopRequested { body(self) }
        publishLocked()
        lock.unlock()
        wake.wake()
    }

    /// Waits in ppoll on the wake pipe and `fd` (if ≥ 0); negative timeout = forever.
    private func waitForWake(fd: CInt, events: Int16, timeoutMicros: Int) {
        var fds = (pollfd(fd: wake.readEnd.rawValue, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: fd, events: events, revents: 0))
        let count: nfds_t = fd >= 0 ? 2 : 1
        var spec = timespec(tv_sec: timeoutMicros / 1_000_000, tv_nsec: (timeoutMicros % 1_000_000) * 1000)
        _ = withUnsafeMutableBytes(of: &fds) { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: pollfd.self)
            return timeoutMicros < 0 ? cserial_ppoll(base, count, nil) : cserial_ppoll(base, count, &spec)
        }
        if fds.0.revents != 0 { wake.reset() }
        // A hung-up or invalid pty would poll ready forever: pace those by the timeout instead.
        if fd >= 0, fds.1.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0, timeoutMicros > 0 {
            var rest = timespec(tv_sec: 0, tv_nsec: min(timeoutMicros, 10_000) * 1000)
            _ = nanosleep(&rest, nil)
        }
    }

    /// A link that cannot be made gets a message about the link, not the port.
    static func terminalError(_ error: SerialError) -> NativeBoardError {
        if case .ioError(let path, "symlink", let code) = error {
            return .pseudoTerminal("cannot create the link \(path) (\(code)); "
                + "pick a path in a writable directory, not an existing file")
        }
        return .pseudoTerminal(error.message)
    }

    // MARK: Rates and time

    /// The sample period for a rate, rounded to whole µs.
    static func period(_ hz: Int) -> UInt64 { UInt64(max(1, (1_000_000 + hz / 2) / max(1, hz))) }

    /// The firmware's CONFIGURE rule: 4…1000 Hz, the SMPLRT_DIV whose rate
    /// 1000 / (1 + d) is nearest; the period is then exactly (1 + d) ms.
    static func firmwareDivider(_ requested: Int) -> Int {
        let hz = Double(max(4, min(1000, requested)))
        var best = 0
        for divider in 0...249 where abs(1000 / Double(1 + divider) - hz) < abs(1000 / Double(1 + best) - hz) {
            best = divider
        }
        return best
    }
}
