/// What a `FrameDecoder` has seen, counted exactly.
///
/// Every non-empty run of bytes between two delimiters ends in exactly one of
/// `framesDecoded`, `crcErrors`, `framingErrors`, `oversizeFrames`,
/// `unknownTypes`, `partialAtJoin` (empty runs, two delimiters in a row, are
/// idle filler and not counted). A damaged run may also yield up to two
/// `recoveredFrames` (frames found at its start or end, also counted in
/// `framesDecoded`), so `runs` = framesDecoded − recoveredFrames + errors +
/// partialAtJoin. `lostFrames`, `duplicates` and `reorderedFrames` come from
/// the SAMPLE sequence numbers and board time: the board sent
/// samplesDecoded − duplicates + lostFrames SAMPLE frames since the first one
/// received (after a HELLO: since its sequence number 0). Reordered and
/// duplicate SAMPLEs are decoded but not delivered (`deliveredFrames`).
public struct DecoderCounters: Hashable, Sendable {
    /// Valid frames of a known type delivered (all types, SAMPLE included).
    public var framesDecoded: UInt64 = 0
    /// Runs that were valid COBS, at least 3 bytes, but whose CRC did not check.
    public var crcErrors: UInt64 = 0
    /// Invalid COBS, a payload shorter than 3 bytes, or a body length that does not
    /// match the (known) type.
    public var framingErrors: UInt64 = 0
    /// Runs longer than the 65 encoded bytes a 64-byte payload can take.
    public var oversizeFrames: UInt64 = 0
    /// Valid CRC but a type this version does not know: skipped, and not an
    /// error (protocol.md, "Versioning": newer firmware may add types; damage
    /// that slips past the CRC lands here too, at most the CRC's false-accept rate).
    public var unknownTypes: UInt64 = 0
    /// SAMPLE frames missing according to sequence numbers (and time, for gaps
    /// of 256 or more; see `SampleTracker`); a late (reordered) frame takes
    /// itself out again.
    public var lostFrames: UInt64 = 0
    /// SAMPLE frames dropped because their sequence number already arrived
    /// (the same as the last one, or up to 63 behind it and not counted lost).
    public var duplicates: UInt64 = 0
    /// SAMPLE frames dropped because they arrived after a later one (up to 63
    /// behind it, board time not later): each was counted in `lostFrames` when
    /// the later one came, and is taken out of it again.
    public var reorderedFrames: UInt64 = 0
    /// Frames found at the start or end of a damaged run (after garbage, or
    /// next to a lost delimiter); included in `framesDecoded`.
    public var recoveredFrames: UInt64 = 0
    /// SAMPLE frames among `framesDecoded`.
    public var samplesDecoded: UInt64 = 0
    /// A damaged first run after the decoder started or the link restarted: the
    /// host joined the stream mid-frame (a board that was already talking).
    /// Not an error: at most one per join.
    public var partialAtJoin: UInt64 = 0

    /// All counts zero.
    public init() {}

    /// Frames handed to the caller: all decoded ones except the dropped
    /// duplicate and reordered SAMPLEs.
    public var deliveredFrames: UInt64 { framesDecoded - duplicates - reorderedFrames }

    /// Damaged runs: those that did not produce a frame, frames of an unknown
    /// type aside.
    public var errors: UInt64 { crcErrors + framingErrors + oversizeFrames }

    /// Non-empty runs seen: frames not recovered from a damaged run, errors,
    /// frames of an unknown type, and the partial frames at joins.
    public var runs: UInt64 { framesDecoded - recoveredFrames + errors + unknownTypes + partialAtJoin }
}
