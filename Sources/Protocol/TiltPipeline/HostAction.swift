import TiltCore
import TiltPhysics
import WireProtocol

/// What `HostDriver` asks its shell to do. The shell performs each action in
/// the order given once the driver call returned (so an action may call the
/// driver again, e.g. `openPort`'s answer), then asks `HostDriver.nextWait` how to wait.
public enum HostAction: Hashable, Sendable {
    /// Write these bytes to the open port (after a write failure the shell
    /// calls `portGone` or stops).
    case write(HostWrite)
    /// A data event (JSON, the live view), after its OFFSETS frame was written.
    case event(HostEvent)
    /// News for people (stderr), never part of the data.
    case news(HostNews)
    /// Start the user's hook for this event (`--on-pull`).
    case runHook(HookRequest)
    /// Redraw the live view from `HostDriver.snapshot` (the refresh period passed).
    case refresh
    /// Open the configured port (again); answer with `portOpened` or `portOpenFailed`.
    case openPort
    /// Close the port (the device is gone, or it was not the board).
    case closePort
    /// Name other programs that have the device open (they steal bytes).
    case reportOtherOpeners
    /// The run is over: stop waiting, close everything, report `HostEnding`.
    case finish(HostEnding)
}

/// Bytes for the board. Inline values, so a tick's write never allocates.
public enum HostWrite: Hashable, Sendable {
    /// HOST_HELLO: asks a board that was not reset to introduce itself.
    case hostHello
    /// SYNC 1: asks the board for READY before each new view (after its HELLO).
    case sync
    /// DESCRIBE: asks the board which parts it found (after its HELLO).
    case describe
    /// The tick's OFFSETS frame, or a view between ticks for a board that said READY.
    case offsets(OffsetsWire)
    /// The tick's DRAWER and PIN frames, after its OFFSETS.
    case scene(SceneWire)

    /// The bytes to write, encoded by WireProtocol as every frame is.
    public var wire: WireBytes {
        switch self {
        case .hostHello: WireBytes(HostHelloFrame())
        case .sync: WireBytes(SyncFrame(enabled: true))
        case .describe: WireBytes(DescribeFrame())
        case .offsets(let offsets): offsets.wire
        case .scene(let scene): scene.wire
        }
    }
}

/// A hook to start, with the event's values (they go into its environment).
public enum HookRequest: Hashable, Sendable {
    /// The ribbon fired: the tick it fired on and the run's fire count so far.
    case pull(Tick, fires: UInt64)
    /// An item was dropped as a pin (`--on-pin`).
    case pin(Tick, Pin)
}

/// Connection news for people, decided by the driver.
public enum HostNews: Hashable, Sendable {
    /// The port is open; waiting for the board's first frame.
    case waitingForBoard
    /// The device vanished; `reconnecting` false means the run ends.
    case deviceGone(reconnecting: Bool)
    /// The port opened again; nothing is written to it until it shows it is the
    /// board (a valid frame), unless the shell vouched for its identity.
    case reopened(verified: Bool)
    /// The reopened device sent a valid frame: it is the board; writing resumes.
    case boardConfirmed
    /// The reopened device sent nothing valid for `micros`; the port is closed
    /// and its path looked up again.
    case silentAfterReopen(micros: UInt64)
    /// Damage since the last such news (rate-limited): frames lost on the wire
    /// and damaged frames or lines, with the run's totals.
    case trouble(lost: UInt64, errors: UInt64, totalLost: UInt64, totalErrors: UInt64)
    /// A board that streamed sent no sample for `forMicros` (at least
    /// `HostDriver.Configuration.samplesStoppedMicros`) while its port stayed
    /// open; `bytes` arrived meanwhile (0: silence, else something else), of
    /// which `frames` valid frames of other types (READY, PONG…: the link and
    /// the baud rate are fine, the sensor's reads stopped).
    case samplesStopped(forMicros: UInt64, bytes: UInt64, frames: UInt64 = 0)
    /// Samples came again, `afterMicros` after the last one.
    case samplesResumed(afterMicros: UInt64)
}

/// The outcome of making the current pose the rest pose (`HostDriver.recalibrate`).
public enum Recalibration: Hashable, Sendable {
    /// Done: the new rest pose, degrees from face-up toward face-forward.
    case restPose(degrees: Double)
    /// Recipe mode's rest pose is fixed (az = −0.5); nothing changed.
    case fixedInRecipeMode
    /// No sample arrived yet, so there is no pose to take.
    case noSampleYet
    /// The board lies on its side (pitch undefined); nothing changed.
    case onItsSide
}

/// How a run ended.
public struct HostEnding: Hashable, Sendable {
    /// nil: stopped on request (Ctrl-C, the stop pipe, the end of a replay).
    public var failure: HostFailure?
    /// The run's duration and counters, for the summary line and JSON.
    public var summary: HostSummary

    /// An ending; `failure` nil for a run stopped on request.
    public init(failure: HostFailure?, summary: HostSummary) {
        self.failure = failure
        self.summary = summary
    }
}

/// Why a run stopped short; the command turns each into its exit code and line.
public enum HostFailure: Hashable, Sendable {
    /// No valid frame or data line: `seen` says what came instead.
    case noValidFrames(seen: StreamContent, why: NoValidFramesReason)
    /// HELLO named another protocol version.
    case protocolMismatch(board: UInt8, host: UInt8)
    /// The device vanished and reconnecting is off.
    case deviceGone
}

/// What made the driver give up waiting for a valid frame.
public enum NoValidFramesReason: Hashable, Sendable {
    /// The hello timeout (µs) passed.
    case timedOut(micros: UInt64)
    /// Format detection examined this many bytes without a verdict, after `micros`.
    case detectionGaveUp(bytes: Int, afterMicros: UInt64)
}

/// How the shell should wait next.
public enum HostWait: Hashable, Sendable {
    /// Poll the port and the stop pipe until `until`; read what arrives.
    case port(until: HostTime)
    /// Leave the port unread (nothing arriving before then can complete a
    /// tick) and wait on the stop pipe alone until `until`; then read what
    /// queued at once, without polling first.
    case doze(until: HostTime)
    /// No port is open: wait on the stop pipe alone until `until`.
    case sleep(until: HostTime)
    /// Nothing more to do: the run finished.
    case done
}

/// The counters and duration of a run: what the summary line says.
public struct HostSummary: Hashable, Sendable {
    /// Host time from the first open to the end, µs.
    public var durationMicros: UInt64
    /// Bytes, frames, samples, ticks, losses and errors over the run.
    public var counters: HostCounters
    /// Pins on the map at the end (those kept from earlier runs included).
    public var pinCount = 0

    /// A summary with no pins counted.
    public init(durationMicros: UInt64, counters: HostCounters) {
        self.durationMicros = durationMicros
        self.counters = counters
    }
}

/// What the live view shows, about 5 times a second.
public struct HostSnapshot: Sendable {
    /// Host time since the run started, µs.
    public var elapsedMicros: UInt64
    /// The counters so far.
    public var counters: HostCounters
    /// The detected stream format; nil while undecided.
    public var format: StreamFormat?
    /// The last HELLO (firmware version, sample rate, full scales); nil before one.
    public var hello: HelloFrame?
    /// The last physics tick (offsets, velocities, ribbon); nil before one.
    public var lastTick: Tick?
    /// The last OFFSETS frame sent; nil before one.
    public var lastOffsets: OffsetsFrame?
    /// What the board was told to draw (OFFSETS, drawer, pins): `DisplayMirror.show(_:)` draws it.
    public var scene = BoardScene()
    /// The last sample as received (raw counts).
    public var lastSample: TimedSample?
    /// Counts to units with the ranges HELLO named and the mounting's axes.
    public var converter: SampleConverter
    /// The integrator, its rest pose (degrees from face-up; smooth mode) and the
    /// ribbon's fire threshold (points).
    public var mode: IntegratorMode
    /// Rest pitch from face-up, degrees (smooth mode).
    public var restDegrees: Double
    /// Ribbon pull-out that fires, points.
    public var fireThreshold: Double

    /// A snapshot; unknown parts nil, and the smooth integrator's defaults (rest 60°, fire at 75 points).
    public init(
        elapsedMicros: UInt64, counters: HostCounters, format: StreamFormat? = nil, hello: HelloFrame? = nil,
        lastTick: Tick? = nil, lastOffsets: OffsetsFrame? = nil, lastSample: TimedSample? = nil,
        converter: SampleConverter = SampleConverter(), mode: IntegratorMode = .smooth, restDegrees: Double = 60,
        fireThreshold: Double = 75
    ) {
        self.elapsedMicros = elapsedMicros
        self.counters = counters
        self.format = format
        self.hello = hello
        self.lastTick = lastTick
        self.lastOffsets = lastOffsets
        self.lastSample = lastSample
        self.converter = converter
        self.mode = mode
        self.restDegrees = restDegrees
        self.fireThreshold = fireThreshold
    }
}
