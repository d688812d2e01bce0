import CBoardParts
import Foundation
import SerialIO
import TiltCore
#if canImport(Glibc)
import Glibc
#endif

/// An Arduino Uno/Nano (ATmega328P at 16 MHz) running real firmware in simavr,
/// with a virtual MPU-6050 (TWI 0x68, INT on D2), an SSD1306 OLED (TWI 0x3C) and
/// UART0 on a pseudo-terminal.
///
/// The core runs on its own thread in batches of one simulated millisecond,
/// paced against the wall clock (`AVRPace`). Every simavr object belongs to
/// that thread while a batch runs; the public methods take the same lock
/// between batches, so they are safe from any thread.
public final class AVRBoard: @unchecked Sendable {
    /// What to build.
    public struct Configuration: Sendable {
        /// The firmware: an ELF built by avr-gcc for the ATmega328P.
        public var firmwarePath: String
        public var pace: AVRPace
        /// Keep a symlink here pointing at the current pty slave (stable across replugs).
        public var linkPath: String?
        public var motionSource: any MotionSource
        /// Reset the core when a client opens the pty, like the DTR pulse that
        /// resets an Uno or Nano when a host opens its serial port.
        public var resetOnConnect = false
        public var mcu = "atmega328p"
        public var frequency: UInt32 = 16_000_000
        /// The MPU-6050's TWI address (0x69 for a part with AD0 high); nil: no
        /// sensor on the bus (every access NACKed).
        public var sensorAddress: UInt8? = 0x68
        /// Where the MPU-6050's INT pin is wired (D2 = INT0, as sketches expect); nil: not wired.
        public var sensorInterruptPin: AVRPin? = .d2
        public var displayAddress: UInt8 = 0x3C

        public init(firmwarePath: String, pace: AVRPace = .realTime, linkPath: String? = nil,
                    motionSource: any MotionSource = ConstantMotionSource.faceUp) {
            self.firmwarePath = firmwarePath
            self.pace = pace
            self.linkPath = linkPath
            self.motionSource = motionSource
        }
    }

    public let configuration: Configuration

    // Simulation objects: touched only with `simulation` locked.
    private let simulation = NSLock()
    private var avr: OpaquePointer?
    private var display: OpaquePointer?
    private let sensor: MPU6050Device
    private let serial: AVRSerialBridge
    private var pacer: AVRPacer
    private var plugged = true
    private var stopRequested = false
    private let batchCycles: UInt64
    private var displayReader = SSD1306Reader()
    private var displayCapture: SSD1306Capture?

    // Published state: guarded by `published`, waited on by observers.
    private let published = NSCondition()
    private var status: AVRBoardStatus
    private var speedAnchor: (wall: UInt64, simulated: UInt64) = (0, 0)

    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    /// Loads the firmware and opens the pty; the core does not run until `start()`.
    public init(_ configuration: Configuration) throws(AVRBoardError) {
        self.configuration = configuration
        var error = [CChar](repeating: 0, count: 512)
        guard let avr = cbp_avr_create(configuration.firmwarePath, configuration.mcu,
                                       configuration.frequency, &error, error.count) else {
            throw .firmware(error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        let terminal: AVRPseudoTerminal
        do {
            terminal = try AVRPseudoTerminal(linkPath: configuration.linkPath)
        } catch {
            cbp_avr_destroy(avr)
            throw error
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            cbp_avr_destroy(avr)
            throw .pseudoTerminal("pipe failed: \(String(cString: strerror(errno)))")
        }
        for end in pipeEnds {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        self.avr = avr
        batchCycles = UInt64(configuration.frequency / 1000)
        serial = AVRSerialBridge(avr: avr)
        serial.terminal = terminal
        sensor = MPU6050Device(avr: avr, address: configuration.sensorAddress,
                               interruptPin: configuration.sensorInterruptPin, source: configuration.motionSource)
        display = cbp_ssd1306_create(avr, configuration.displayAddress)
        displayCapture = SSD1306Capture(avr: avr, part: display)
        pacer = AVRPacer(pace: configuration.pace)
        if configuration.resetOnConnect {
            // Runs inside pump(), on the simulation thread with the lock held.
            serial.onConnect = { [unowned serial] in
                cbp_avr_reset(avr)
                serial.coreDidReset()
            }
        }
        status = AVRBoardStatus(
            state: .idle, serialPath: terminal.slavePath, simulatedMicros: 0, display: AVRDisplayFrame(),
            displayGeneration: 0, sensorSamples: 0, bytesFromAVR: 0, bytesToAVR: 0, droppedSerialOutput: 0)
    }

    deinit {
        stop()
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    // MARK: Lifecycle

    /// Starts the simulation thread. Does nothing if already started or stopped.
    public func start() {
        simulation.lock()
        defer { simulation.unlock() }
        guard thread == nil, avr != nil else { return }
        let now = MonotonicClock.nanos()
        let micros = simulatedMicros()
        pacer.anchor(simulatedMicros: micros, wallNanos: now)
        published.withLock {
            status.state = .running
            speedAnchor = (now, micros)
        }
        // The thread holds the board only during an iteration, so dropping the
        // last reference (without stop()) still ends the thread and frees simavr.
        let finished = finished
        let thread = Thread { [weak self] in
            var descriptors = [pollfd](repeating: pollfd(), count: 2)
            while let board = self, board.iterate(&descriptors) {}
            finished.signal()
        }
        thread.name = "AVRBoard"
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    /// Stops the core, joins its thread, frees simavr, closes the pty and removes
    /// the link. Idempotent; also done on deinit.
    public func stop() {
        simulation.lock()
        let wasStarted = thread != nil && !stopRequested
        let onSimulationThread = thread.map { $0 == Thread.current } ?? false
        stopRequested = true
        simulation.unlock()
        wake()
        if wasStarted && !onSimulationThread { finished.wait() }

        simulation.lock()
        defer { simulation.unlock() }
        guard let avr else { return }
        sensor.detach()
        serial.detach()
        displayCapture?.detach()
        displayCapture = nil
        cbp_ssd1306_destroy(display)
        display = nil
        cbp_avr_destroy(avr)
        self.avr = nil
        serial.terminal?.close()
        serial.terminal?.removeLink()
        serial.terminal = nil
        published.withLock {
            status.state = .stopped
            status.serialPath = nil
        }
        published.broadcast()
    }

    // MARK: Control

    /// Presses reset: the core restarts from address 0; RAM, the sensor and the
    /// display keep their state (they are separate chips). Also revives a halted core.
    public func reset() {
        withSimulation { avr in
            cbp_avr_reset(avr)
            serial.coreDidReset()
            if plugged { published.withLock { status.state = .running } }
        }
    }

    /// Pulls the USB cable: the pty hangs up (clients read EOF/EIO) and the board
    /// loses power. The link, if any, stays and will point at the next pty.
    public func unplug() {
        withSimulation { _ in
            guard plugged else { return }
            plugged = false
            serial.terminal?.close()
            serial.terminal = nil
            serial.clear()
            published.withLock {
                status.state = .unplugged
                status.serialPath = nil
            }
        }
    }

    /// Plugs the cable back in: a new pty (the link follows it), and a power-on
    /// reset of the core, the sensor and the display. Returns the new slave path.
    @discardableResult
    public func plugIn() throws(AVRBoardError) -> String {
        simulation.lock()
        defer {
            simulation.unlock()
            published.broadcast()
            wake()
        }
        guard let avr, !stopRequested else { throw .pseudoTerminal("the board is stopped; make a new AVRBoard") }
        if plugged, let path = serial.terminal?.slavePath { return path }
        let terminal = try AVRPseudoTerminal(linkPath: configuration.linkPath)
        plugged = true
        serial.terminal = terminal
        serial.clear()
        sensor.powerOn()
        cbp_ssd1306_power_on(display)
        cbp_avr_reset(avr)
        serial.coreDidReset()
        pacer.anchor(simulatedMicros: simulatedMicros(), wallNanos: MonotonicClock.nanos())
        published.withLock {
            status.state = thread == nil ? .idle : .running
            status.serialPath = terminal.slavePath
        }
        return terminal.slavePath
    }

    /// Changes the pace from now on; also restarts the speed report.
    public func setPace(_ pace: AVRPace) {
        withSimulation { _ in
            let now = MonotonicClock.nanos()
            let micros = simulatedMicros()
            pacer.anchor(simulatedMicros: micros, wallNanos: now, pace: pace)
            published.withLock { speedAnchor = (now, micros) }
        }
    }

    /// Replaces the sensor's motion source from the next sample on.
    public func setMotionSource(_ source: any MotionSource) {
        withSimulation { _ in sensor.source = source }
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
        return displayCapture?.request(atMicros: micros) ?? false
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

    /// Simulated seconds per wall second since `start()` or the last `setPace`.
    public func speedReport() -> AVRSpeedReport {
        published.withLock {
            AVRSpeedReport(boardMicros: status.simulatedMicros, wallNanos: MonotonicClock.nanos(),
                           since: (speedAnchor.wall, speedAnchor.simulated))
        }
    }

    // MARK: Simulation thread

    /// One step of the simulation thread: a batch of simulated time, or a wait
    /// (for the pacer, client input or a command). False once stopped.
    private func iterate(_ descriptors: inout [pollfd]) -> Bool {
        simulation.lock()
        if stopRequested {
            simulation.unlock()
            return false
        }
        var delay: UInt64 = 100_000_000  // idle (unplugged, halted): wake on commands
        if plugged, let avr, isRunnable(cbp_avr_state(avr)) {
            let target = AVRClock.micros(cycle: cbp_avr_cycle(avr) + batchCycles, frequency: configuration.frequency)
            delay = pacer.delay(beforeReaching: target, wallNanos: MonotonicClock.nanos())
            if delay == 0 {
                let state = cbp_avr_run_until(avr, cbp_avr_cycle(avr) + batchCycles)
                serial.pump()
                publish(state: state)
                simulation.unlock()
                return true
            }
        }
        serial.pump()
        let fd = serial.waitDescriptor
        simulation.unlock()

        descriptors[0] = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        descriptors[1] = pollfd(fd: fd ?? -1, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(min((delay + 999_999) / 1_000_000, 1000))
        _ = poll(&descriptors, 2, milliseconds)
        if descriptors[0].revents != 0 { drainWake() }
        return true
    }

    private func isRunnable(_ state: Int32) -> Bool {
        state != Int32(CBP_STATE_DONE) && state != Int32(CBP_STATE_CRASHED)
    }

    /// Called with `simulation` locked, after a batch.
    private func publish(state: Int32) {
        let frame = displayReader.frameIfChanged(display)
        let captures = displayCapture?.take() ?? [:]
        let micros = simulatedMicros()
        let halted: String? = switch state {
        case Int32(CBP_STATE_DONE): "the firmware stopped (slept with interrupts off or returned from main); reset() restarts it"
        case Int32(CBP_STATE_CRASHED): "the firmware crashed (bad opcode, jump or stack); reset() restarts it"
        default: nil
        }
        published.withLock {
            status.simulatedMicros = micros
            if let frame {
                status.display = frame
                status.displayGeneration += 1
            }
            status.displayCaptures.merge(captures) { $1 }
            status.sensorSamples = sensor.model.sampleCount
            status.bytesFromAVR = serial.bytesFromAVR
            status.bytesToAVR = serial.bytesToAVR
            status.droppedSerialOutput = serial.droppedOutput
            if let halted {
                status.state = .halted(halted)
            } else if case .halted = status.state {
                status.state = .running  // revived by a reset on connect
            }
        }
        published.broadcast()
    }

    // MARK: Helpers

    private func withSimulation(_ body: (OpaquePointer) -> Void) {
        simulation.lock()
        if let avr, !stopRequested { body(avr) }
        simulation.unlock()
        published.broadcast()
        wake()
    }

    private func simulatedMicros() -> UInt64 {
        guard let avr else { return 0 }
        return AVRClock.micros(cycle: cbp_avr_cycle(avr), frequency: configuration.frequency)
    }

    private func status<T>(_ keyPath: KeyPath<AVRBoardStatus, T>) -> T {
        published.withLock { status[keyPath: keyPath] }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func drainWake() {
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while read(wakeRead, &buffer, MemoryLayout.size(ofValue: buffer)) > 0 {}
    }
}
