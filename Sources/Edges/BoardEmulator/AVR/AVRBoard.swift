import Foundation
import SerialIO
import TiltCore
import TiltDisplay
#if canImport(Glibc)
import Glibc
#endif

/// An Arduino Uno/Nano (ATmega328P at 16 MHz) running real firmware in simavr,
/// with a virtual MPU-6050 (TWI 0x68, INT on D2), an SSD1306 OLED (TWI 0x3C) and
/// UART0 on a pseudo-terminal.
///
/// An `AVRMachine` on its own thread, in batches of one simulated millisecond,
/// paced against the wall clock (`BoardPace`). The machine belongs to that thread
/// while a batch runs; the public methods take the same lock between batches,
/// so they are safe from any thread.
public final class AVRBoard: @unchecked Sendable {
    /// What to build.
    public struct Configuration: Sendable {
        /// The firmware: an ELF built by avr-gcc for the ATmega328P, or an Intel HEX file.
        public var firmwarePath: String
        /// How simulated time keeps up with the wall clock (real time, a factor, or free-running).
        public var pace: BoardPace
        /// Keep a symlink here pointing at the current pty slave (stable across replugs).
        public var linkPath: String?
        /// What the MPU-6050 feels, asked at simulated µs since the board was made.
        public var motionSource: any MotionSource
        /// Hold the core in reset until a client first opens the pty, as an Uno
        /// (reset by DTR when its port opens) is seen to start when the host
        /// connects: the client's first bytes are the firmware's first, and
        /// simulated time (and so the motion) starts then.
        public var holdInResetUntilOpened = false
        /// Reset the core whenever a client opens the pty (after the first time
        /// too), like the DTR pulse that resets an Uno or Nano when a host opens its port.
        public var resetOnConnect = false
        /// The simavr core to build (`avr_make_mcu_by_name`); the firmware must be built for it.
        public var mcu = "atmega328p"
        /// CPU clock, Hz (an Uno's crystal: 16 MHz); sets UART baud timing and cycle counts.
        public var frequency: UInt32 = 16_000_000

        /// The core and clock of `board`'s chip, and whether its port's DTR
        /// resets it (`resetOnConnect`); its wiring stays as set.
        public mutating func configure(for board: ArduinoBoard) {
            mcu = board.mcu
            frequency = board.frequency
            resetOnConnect = board.resetsWhenPortOpens
        }
        /// The MPU-6050's TWI address (0x69 for a part with AD0 high); nil: no
        /// sensor on the bus (every access NACKed).
        public var sensorAddress: UInt8? = 0x68
        /// Where the MPU-6050's INT pin is wired (D2 = INT0, as sketches expect); nil: not wired.
        public var sensorInterruptPin: AVRPin? = .d2
        /// The SSD1306's 7-bit TWI address (0x3D for a module with SA0 high).
        public var displayAddress: UInt8 = 0x3C
        /// The sensor's WHO_AM_I (`AVRMachine.Configuration.sensorWhoAmI`).
        public var sensorWhoAmI: UInt8 = 0x68
        /// The display's controller (`AVRMachine.Configuration.display`).
        public var display: EmulatedDisplay = .ssd1306
        /// The fastest clock the display answers at (`AVRMachine.Configuration.displayMaxClockHz`).
        public var displayMaxClockHz: UInt32?

        /// An atmega328p at 16 MHz with the sensor at 0x68 (INT on D2) and the display at 0x3C.
        public init(firmwarePath: String, pace: BoardPace = .realTime, linkPath: String? = nil,
                    motionSource: any MotionSource = ConstantMotionSource.faceUp) {
            self.firmwarePath = firmwarePath
            self.pace = pace
            self.linkPath = linkPath
            self.motionSource = motionSource
        }

        var machine: AVRMachine.Configuration {
            var machine = AVRMachine.Configuration(firmwarePath: firmwarePath, motionSource: motionSource)
            machine.mcu = mcu
            machine.frequency = frequency
            machine.sensorAddress = sensorAddress
            machine.sensorInterruptPin = sensorInterruptPin
            machine.displayAddress = displayAddress
            machine.sensorWhoAmI = sensorWhoAmI
            machine.display = display
            machine.displayMaxClockHz = displayMaxClockHz
            return machine
        }
    }

    /// What the board was built with.
    public let configuration: Configuration

    // Simulation objects: touched only with `simulation` locked.
    private let simulation = NSLock()
    private let machine: AVRMachine
    private var link: PtyLink?
    private var pacer: BoardPacer
    private var plugged = true
    private var stopRequested = false
    /// Held in reset until the first client (holdInResetUntilOpened).
    private var held: Bool
    private var everOpened = false
    private var readBuffer = [UInt8](repeating: 0, count: 1024)

    // Published state: guarded by `published`, waited on by observers.
    private let published = NSCondition()
    private var status: AVRBoardStatus
    private var speedAnchor: (wall: UInt64, simulated: UInt64) = (0, 0)

    private let thread: BoardThread

    /// While held, how often the thread looks for the first client (wall ms).
    static let heldPollMillis: UInt64 = 10

    /// Loads the firmware and opens the pty; the core does not run until `start()`.
    public init(_ configuration: Configuration) throws(AVRBoardError) {
        self.configuration = configuration
        machine = try AVRMachine(configuration.machine)
        machine.setSerialPortOpen(false)  // DTR down until a client opens the pty
        do {
            thread = try BoardThread()
            link = try PtyLink(linkPath: configuration.linkPath)
            link?.setDefaultBaud(Self.defaultLinkBaud)
        } catch {
            throw .link(BoardLinkError(error))
        }
        pacer = BoardPacer(pace: configuration.pace)
        held = configuration.holdInResetUntilOpened
        status = AVRBoardStatus(
            state: .idle, serialPath: link?.slavePath, simulatedMicros: 0, display: AVRDisplayFrame(),
            displayGeneration: 0, sensorSamples: 0, bytesFromAVR: 0, bytesToAVR: 0, droppedSerialOutput: 0)
    }

    deinit { stop() }

    // MARK: Lifecycle

    /// Starts the simulation thread (held in reset until a client opens the pty,
    /// if so configured). Does nothing if already started or stopped.
    public func start() {
        simulation.lock()
        defer { simulation.unlock() }
        guard !thread.isStarted, !stopRequested else { return }
        anchorClocks()
        published.withLock { status.state = held ? .waitingForHost : .running }
        // The thread holds the board only during an iteration, so dropping the
        // last reference (without stop()) still ends the thread and frees simavr.
        thread.start(name: "AVRBoard") { [weak self] in self?.iterate() ?? false }
    }

    /// Stops the core, joins its thread, frees simavr, closes the pty and removes
    /// the link. Idempotent; also done on deinit.
    public func stop() {
        simulation.lock()
        stopRequested = true
        simulation.unlock()
        thread.wakeUp()
        thread.join()

        simulation.lock()
        defer { simulation.unlock() }
        machine.destroy()
        link?.close()
        link?.removeLink()
        link = nil
        published.withLock {
            status.state = .stopped
            status.serialPath = nil
            status.hostConnected = false
        }
        published.broadcast()
    }

    // MARK: Control

    /// Presses reset: the core restarts from address 0; RAM, the sensor and the
    /// display keep their state (they are separate chips). Also revives a halted core.
    public func reset() {
        withSimulation {
            machine.reset()
            if plugged && !held { published.withLock { status.state = .running } }
        }
    }

    /// Pulls the USB cable: the pty hangs up (clients read EOF/EIO) and the board
    /// loses power. The link, if any, stays and will point at the next pty.
    public func unplug() {
        withSimulation {
            guard plugged else { return }
            plugged = false
            link?.close()
            link = nil
            machine.uart.clear()
            published.withLock {
                status.state = .unplugged
                status.serialPath = nil
                status.hostConnected = false
            }
        }
    }

    /// Plugs the cable back in: a new pty (the link follows it), and a power-on
    /// reset of the core, the sensor and the display. Returns the new slave path.
    @discardableResult
    public func plugIn() throws(BoardLinkError) -> String {
        simulation.lock()
        defer {
            simulation.unlock()
            published.broadcast()
            thread.wakeUp()
        }
        guard !stopRequested else { throw .stopped }
        if plugged, let path = link?.slavePath { return path }
        let link: PtyLink
        do {
            link = try PtyLink(linkPath: configuration.linkPath)
            link.setDefaultBaud(Self.defaultLinkBaud)
        } catch {
            throw BoardLinkError(error)
        }
        self.link = link
        plugged = true
        machine.powerCycle()
        pacer.anchor(boardMicros: machine.simulatedMicros, wallNanos: MonotonicClock.nanos())
        published.withLock {
            status.state = !thread.isStarted ? .idle : held ? .waitingForHost : .running
            status.serialPath = link.slavePath
        }
        return link.slavePath
    }

    /// Changes the pace from now on; also restarts the speed report.
    public func setPace(_ pace: BoardPace) {
        withSimulation { anchorClocks(pace: pace) }
    }

    /// Starts recording motion to photon (`AVRMachine.recordGlassStats`);
    /// call before `start()` so the scene is mirrored from power-on.
    public func recordGlassStats(renderer: ScreenRenderer) {
        withSimulation { machine.recordGlassStats(renderer: renderer) }
    }

    /// The glass frames and their summary so far; nil unless recorded.
    public var glassStats: GlassStats? {
        var stats: GlassStats?
        withSimulation { stats = machine.glassStats }
        return stats
    }

    /// Replaces the sensor's motion source from the next sample on.
    public func setMotionSource(_ source: any MotionSource) {
        withSimulation { machine.motionSource = source }
    }

    /// Takes the sensor module's wires off (false) or puts them back (true),
    /// at the board's current time (`AVRMachine.sensorConnected`).
    public func setSensorConnected(_ connected: Bool) {
        withSimulation { machine.sensorConnected = connected }
    }

    /// The EEPROM's bytes; setting writes them from its first byte (a file
    /// kept between runs: `tiltsim --eeprom`). Empty once stopped.
    public var eeprom: [UInt8] {
        get {
            var bytes: [UInt8] = []
            withSimulation { bytes = machine.eeprom }
            return bytes
        }
        set { withSimulation { machine.eeprom = newValue } }
    }

    // MARK: Observation

    /// The latest published status.
    public var currentStatus: AVRBoardStatus { published.withLock { status } }

    /// The pty slave path a client opens now; nil while unplugged or stopped.
    public var serialPath: String? { status(\.serialPath) }

    /// The display as last published (after the latest simulated millisecond).
    public var displayFrame: AVRDisplayFrame { status(\.display) }

    /// Asks for the display as it is at board time `micros` exactly (a timer on
    /// the core's cycle counter takes it, however fast the core runs); read it
    /// with `display(atBoardMicros:timeout:)`. False if the board is past that time.
    @discardableResult
    public func captureDisplay(atBoardMicros micros: UInt64) -> Bool {
        simulation.lock()
        defer { simulation.unlock() }
        return machine.captureDisplay(atMicros: micros)
    }

    /// The display at board time `micros` (asked for with `captureDisplay`), once
    /// the board has got there; nil after `timeout` of wall time.
    public func display(atBoardMicros micros: UInt64, timeout: Duration) -> AVRDisplayFrame? {
        waitFor(timeout: timeout) { $0.displayCaptures[micros] != nil }?.displayCaptures[micros]
    }

    /// Waits until `condition` holds for the published status, or `timeout`
    /// passes (wall time). Returns the status that satisfied it, or nil.
    /// `condition` runs under the status lock: it must not call the board.
    public func waitFor(timeout: Duration, _ condition: (AVRBoardStatus) -> Bool) -> AVRBoardStatus? {
        published.waitForValue(timeout: timeout) { condition(status) ? status : nil }
    }

    /// Simulated seconds per wall second since `start()` (or the first client,
    /// when held until then) or the last `setPace`.
    public func speedReport() -> BoardSpeedReport {
        published.withLock {
            BoardSpeedReport(boardMicros: status.simulatedMicros, wallNanos: MonotonicClock.nanos(),
                           since: (speedAnchor.wall, speedAnchor.simulated))
        }
    }

    // MARK: Simulation thread

    /// One step of the simulation thread: a batch of simulated time, or a wait
    /// (for the pacer, client input, the first client or a command). False once stopped.
    private func iterate() -> Bool {
        simulation.lock()
        if stopRequested {
            simulation.unlock()
            return false
        }
        pump()
        var delay: UInt64 = 100_000_000  // idle (unplugged, halted): wake on commands (ns)
        if held {
            delay = Self.heldPollMillis * 1_000_000
        } else if plugged, machine.haltReason == nil {
            delay = pacer.delay(beforeReaching: machine.nextBatchMicros, wallNanos: MonotonicClock.nanos())
            if delay == 0 {
                machine.runBatch()
                pump()
                publish()
                simulation.unlock()
                return true
            }
        }
        // Not woken by input the link holds back while a rate settles (it would spin until then).
        let fd = link.flatMap { $0.clientConnected && machine.uart.inputRoom > 0 && !bytesWait ? $0.fd : nil }
        simulation.unlock()
        thread.wait(fd: fd ?? -1, events: Int16(POLLIN), timeoutMicros: Int((min(delay, 1_000_000_000) + 999) / 1000))
        return true
    }

    /// A host opened the port: the held board powers on, and one that resets
    /// on connect (an Uno's DTR) starts again, its baud rate to be seen anew.
    private func hostOpened() {
        if held {
            held = false  // power-on: the first client sees the firmware from its first byte
            anchorClocks()
            published.withLock { status.state = .running }
        } else if configuration.resetOnConnect {
            machine.uart.clear()  // the client sees nothing from before the reset
            machine.reset()
            // Its UART runs at UBRR 0 until Serial.begin: hosts opening faster than that saw a sketch at 1 Mbaud.
            sketchBaudWatch = SettledBaud()
            baudLookedUpAt = nil
        }
        everOpened = true
    }

    /// The serial cable, between batches: notices a client coming or going,
    /// moves bytes both ways, and drops (counting) what the board sent while no
    /// one was listening, as a USB serial adapter does with a closed port.
    private func pump() {
        guard let link else { return }
        switch link.poll() {
        case .opened:
            hostOpened()
            machine.setSerialPortOpen(true)
            published.withLock { status.hostConnected = true }
            published.broadcast()
        case .visited:
            hostOpened()
            published.broadcast()
        case .closed:
            machine.setSerialPortOpen(false)
            published.withLock { status.hostConnected = false }
            published.broadcast()
        case .none:
            break
        }
        guard link.clientConnected else {
            machine.uart.dropOutput()
            return
        }
        // Host and sketch at different baud rates read each other's bytes as a board's UART would: garbage.
        // While either side's rate just changed, bytes wait: none crosses at a rate no one meant.
        let rates = linkRates()
        bytesWait = rates == nil
        guard let (hostBaud, sketchBaud) = rates else { return }
        let mismatched = UARTResampler.mismatched(hostBaud, sketchBaud)
        while machine.uart.inputRoom > 0 {
            let room = min(machine.uart.inputRoom, readBuffer.count)
            let n = readBuffer.withUnsafeMutableBytes { link.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<room])) }
            guard n > 0 else { break }
            readBuffer.withUnsafeBytes { raw in
                let read = UnsafeRawBufferPointer(rebasing: raw[0..<n])
                guard mismatched else {
                    _ = machine.uart.send(read)
                    return
                }
                _ = UARTResampler.resample(read, from: hostBaud, to: sketchBaud).withUnsafeBytes { machine.uart.send($0) }
            }
        }
        guard mismatched else {
            let written = machine.uart.output.withUnsafeBytes { link.write($0) }
            machine.uart.consumeOutput(written)
            return
        }
        let pending = machine.uart.output.count
        let garbled = machine.uart.output.withUnsafeBytes { UARTResampler.resample($0, from: sketchBaud, to: hostBaud) }
        _ = garbled.withUnsafeBytes { link.write($0) }  // what the kernel cannot take is garbage lost, as on a full line
        machine.uart.consumeOutput(pending)
    }

    /// Both ends' rates, looked up (a termios ioctl and the chip's UART
    /// registers) once every `baudLookupMicros` of board time, not at every
    /// batch; nil while either changed too recently to count. A change is
    /// published to `status.baudMismatch`.
    private func linkRates() -> (host: Int, sketch: Int)? {
        let now = machine.simulatedMicros
        if let last = baudLookedUpAt, now < last + Self.baudLookupMicros, now >= last { return rates }
        baudLookedUpAt = now
        let host = hostBaudWatch.settled(link?.clientBaud ?? 0, at: now)
        let sketch = sketchBaudWatch.settled(machine.serialBaud, at: now)
        guard let host, let sketch else {
            rates = nil
            return nil
        }
        rates = (host, sketch)
        let mismatch = UARTResampler.mismatched(host, sketch) ? BaudMismatch(host: host, sketch: UARTResampler.nominal(sketch)) : nil
        if mismatch != publishedMismatch {
            publishedMismatch = mismatch
            published.withLock { status.baudMismatch = mismatch }
        }
        return rates
    }

    private static let baudLookupMicros: UInt64 = 4_000
    private var baudLookedUpAt: UInt64?
    private var rates: (host: Int, sketch: Int)?
    /// Bytes wait in the link while a rate settles.
    private var bytesWait = false
    private var publishedMismatch: BaudMismatch?

    /// Both ends' baud rates once they held for a while: a host sets its rate
    /// just after it opens the port, and our firmware's UART after a reset
    /// runs a millisecond at UBRR 0 before Serial.begin; bytes wait out such
    /// a moment rather than cross at a rate no one meant (or cross clean
    /// between two rates that do not match).
    private var hostBaudWatch = SettledBaud(), sketchBaudWatch = SettledBaud()

    /// What a client that sets no baud rate finds on the pty: the rate our
    /// firmware and most sketches use (a new pty says 38400).
    static let defaultLinkBaud = 115_200

    /// Called with `simulation` locked, after a batch.
    private func publish() {
        let changed = machine.refreshDisplay()
        let display = changed ? machine.display : nil
        let captures = machine.takeDisplayCaptures()
        let micros = machine.simulatedMicros
        let halted = machine.haltReason
        let counts = machine.serialCounts
        let samples = machine.sensorSamples
        let busCycles = machine.busCycles
        published.withLock {
            status.simulatedMicros = micros
            if let display {
                status.display = display
                status.displayGeneration += 1
            }
            status.displayCaptures.merge(captures) { $1 }
            status.sensorSamples = samples
            status.busCycles = busCycles
            status.bytesFromAVR = counts.fromAVR
            status.bytesToAVR = counts.toAVR
            status.droppedSerialOutput = counts.dropped
            if let halted {
                status.state = .halted(halted)
            } else if case .halted = status.state {
                status.state = .running  // revived by a reset on connect
            }
        }
        published.broadcast()
    }

    // MARK: Helpers

    /// Restarts pacing and the speed report from now (start, first client, new pace).
    private func anchorClocks(pace: BoardPace? = nil) {
        let now = MonotonicClock.nanos()
        let micros = machine.simulatedMicros
        pacer.anchor(boardMicros: micros, wallNanos: now, pace: pace)
        published.withLock { speedAnchor = (now, micros) }
    }

    private func withSimulation(_ body: () -> Void) {
        simulation.lock()
        if !stopRequested { body() }
        simulation.unlock()
        published.broadcast()
        thread.wakeUp()
    }

    private func status<T>(_ keyPath: KeyPath<AVRBoardStatus, T>) -> T {
        published.withLock { status[keyPath: keyPath] }
    }
}

/// A baud rate as the link uses it: nil until it has held `settleMicros` of board time.
struct SettledBaud {
    static let settleMicros: UInt64 = 2_000
    private var rate = 0
    private var since: UInt64 = 0

    mutating func settled(_ now: Int, at micros: UInt64) -> Int? {
        if now != rate {
            rate = now
            since = micros
        }
        return micros >= since + Self.settleMicros ? rate : nil
    }
}
