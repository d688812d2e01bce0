import TiltCore
import TiltPhysics
import WireProtocol

/// What a `HostSession` reports while it digests the board's bytes. Everything
/// here follows from the bytes alone (and, for text formats, their receive
/// times), so a live run and a replay of its recording report the same events.
public enum HostEvent: Hashable, Sendable {
    /// The stream's format was recognized (the first valid frame or data line).
    case formatDetected(StreamFormat)
    /// The board introduced itself (after a reset, a HOST_HELLO or a CONFIGURE).
    case hello(HelloFrame)
    /// HELLO carried another protocol version; the session ignores all further input.
    case versionMismatch(board: UInt8, host: UInt8)
    /// The board's content tile is not the host's: the mirror and the board differ.
    case tileMismatch(board: UInt16, host: UInt16)
    /// HELLO named a full-scale setting above 3; the previous ranges stay in use.
    case unsupportedRange(accelSelect: UInt8, gyroSelect: UInt8)
    /// HELLO named a sample rate outside `SampleTracker.plausibleRatesHz`:
    /// gaps are counted from sequence numbers alone.
    case implausibleRate(hz: UInt16)
    /// A sample as received (raw counts, board time), from a session that runs
    /// no physics (`HostSession.runsPhysics` false: `calibrate`).
    case sample(TimedSample)
    /// A physics tick, with the OFFSETS frame to send for it (none when the
    /// tick is `superseded`: a later one of the same sample is sent instead).
    case tick(Tick, OffsetsWire)
    /// The board (its HELLO) may draw in step with the host: ask it for READY
    /// (write SYNC 1). Smooth mode and the binary protocol only.
    case frameSync
    /// The board (its HELLO) may say which parts it found: ask it (write
    /// DESCRIBE). Binary protocol only; older firmware skips the question.
    case describeParts
    /// The board's PARTS: which sensor and display it found, and at which addresses.
    case parts(PartsFrame)
    /// An OFFSETS between ticks for a board that said READY: the map where the
    /// newest sample puts it (`TiltEngine.viewport(at:)`), the ribbon as the
    /// last tick left it, never the fired flag (docs/protocol.md, "Frame sync").
    case view(OffsetsWire)
    /// The ribbon fired on this tick (reported right after its `.tick`).
    case fired(Tick, fires: UInt64)
    /// The DRAWER and PIN frames to send after the tick's OFFSETS (right after its `.tick`).
    case sceneFrames(SceneWire)
    /// A fire opened (`open`) or a fire or a drop closed the drawer on this tick.
    case drawer(Tick, open: Bool)
    /// A "down" gesture pulled item `item` out of the drawer on this tick.
    case pulledOut(Tick, item: Int)
    /// The dragged item was dropped: a new pin; `pins`: all of them now, oldest
    /// first (what a host saves).
    case pinned(Tick, Pin, pins: [Pin])
}

/// Exact counts of everything a session has seen.
public struct HostCounters: Hashable, Sendable {
    /// Binary protocol: frames, errors, lost and duplicated samples.
    public var decoder = DecoderCounters()
    /// Text formats: samples, ignored, malformed and overlong lines.
    public var text = TextReaderCounters()
    /// Samples given to the physics (binary, text or CSV).
    public var samples: UInt64 = 0
    /// HELLO frames received.
    public var hellos: UInt64 = 0
    /// Physics ticks run (= OFFSETS frames produced).
    public var ticks: UInt64 = 0
    /// Ticks on which the ribbon fired.
    public var fires: UInt64 = 0
    /// Items dropped as pins.
    public var pinsDropped: UInt64 = 0

    /// All counts zero.
    public init() {}

    /// Frames lost on the wire (binary protocol only; text carries no sequence).
    public var lostFrames: UInt64 { decoder.lostFrames }
    /// Damaged input: bad frames plus malformed or overlong text lines.
    public var errors: UInt64 { decoder.errors + text.malformedLines + text.overlongLines }
}
