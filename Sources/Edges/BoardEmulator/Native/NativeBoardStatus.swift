import TiltDisplay
import WireProtocol

/// What a `NativeBoard` has done so far, published by its thread after every step.
public struct NativeBoardStatus: Sendable {
    /// Where the board is in its life.
    public enum State: Sendable, Equatable {
        /// Built, not started; started but off until a host opens the pty; sending; cable pulled; stopped for good.
        case idle, waitingForHost, running, unplugged, stopped
    }

    /// Where the board is in its life now.
    public var state: State = .idle
    /// The pty slave a host opens now; nil while unplugged or stopped.
    public var serialPath: String?
    /// Board time since power-on or the last reset, µs (what SAMPLE carries, before the 24-bit wrap).
    public var boardMicros: UInt64 = 0
    /// Board time since the board was made, µs (what the motion source is asked at).
    public var lifetimeMicros: UInt64 = 0
    /// The sample rate in effect (HELLO's).
    public var sampleRateHz: Int = 0
    /// SAMPLE frames put on the wire since the board was made.
    public var samplesSent: UInt64 = 0
    /// Frames of every type put on the wire.
    public var framesSent: UInt64 = 0
    /// HELLO frames sent (at each power-on or reset, and on HOST_HELLO or CONFIGURE).
    public var hellosSent: UInt64 = 0
    /// PONG frames sent (one per PING).
    public var pongsSent: UInt64 = 0
    /// SAMPLE frames not sent because the output was full (nobody reading), like
    /// the firmware's full TX buffer: the host sees them as a sequence gap.
    public var samplesDroppedUnread: UInt64 = 0
    /// Bytes written to the pty master.
    public var bytesWritten: UInt64 = 0
    /// Power-ons (start, plugIn) and resets.
    public var boots: UInt64 = 0
    /// Exact counts of the injected faults.
    public var faults = FaultCounters()
    /// How the board decoded what the host sent.
    public var input = DecoderCounters()
    /// OFFSETS frames received intact.
    public var offsetsReceived: UInt64 = 0
    /// PING frames received intact.
    public var pingsReceived: UInt64 = 0
    /// The last OFFSETS, nil before any (or after a reset).
    public var lastOffsets: OffsetsFrame?
    /// The screen now, and a number that grows on every change.
    public var screen = Screen()
    /// Grows by one on every change of `screen`: a cheap "did it change" check.
    public var screenGeneration: UInt64 = 0
    /// True while the waiting screen shows (no OFFSETS within the last second):
    /// the last whole frame on the glass was the status screen.
    public var showsWaitingScreen = true
    /// Whole frames that reached the glass. The native board draws as the
    /// firmware does (NativeDisplayPipe): a frame takes about 28 ms of board
    /// time on its 400 kHz bus, page by page.
    public var glassFrames: UInt64 = 0
    /// True when the glass shows the newest view (or status screen) the
    /// firmware wants and nothing more is on its way to it.
    public var displayIdle = false

    /// A board that has done nothing yet (idle, all counts zero, waiting screen).
    public init() {}
}
