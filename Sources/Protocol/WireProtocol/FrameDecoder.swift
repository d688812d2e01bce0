import TiltCore

/// Streaming decoder for protocol v1 (docs/protocol.md).
///
/// Feed it bytes in chunks of any size; it calls `deliver` once per valid
/// frame, in order, and counts everything else in `counters`. It never
/// allocates: a partial frame waits in a fixed 72-byte buffer, and each run of
/// bytes between two 0x00 delimiters is judged on its own, so any error (bad
/// COBS, bad CRC, oversize, unknown type) costs only that run and the decoder
/// is back in sync at the next delimiter. A damaged run is also searched for
/// intact frames at its start and end, so a frame whose own bytes and
/// delimiter arrived intact is always decoded, whatever came before it
/// (see `finishRun` and docs/protocol.md).
///
/// SAMPLE frames are delivered as `Frame.sample`, their time unwrapped and gaps
/// counted by `SampleTracker` (whose documentation gives the exact rules); a
/// reordered or duplicate SAMPLE is counted (`framesDecoded`, `samplesDecoded`
/// and `reorderedFrames` or `duplicates`) but not delivered, so delivered
/// samples never go back in time.
public struct FrameDecoder: Sendable {
    /// Counters since creation.
    public internal(set) var counters = DecoderCounters()
    /// Sequence and time state of the SAMPLE stream.
    public internal(set) var tracker = SampleTracker()

    /// Bytes of the current run seen in earlier chunks (COBS-encoded); for a run
    /// longer than 65 bytes, its last 65.
    @usableFromInline var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline var pendingCount = 0
    /// The current run is already longer than any frame: keep only its tail.
    @usableFromInline var discarding = false
    /// The first 24 bytes of the current run once it is oversize (no frame is
    /// longer: SAMPLE's 22 encoded bytes), searched for a frame at its start.
    @usableFromInline var head: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// Nothing since the start or the last `linkRestarted()` has shown where
    /// frames begin (a finished run or a 0x00 at the very start): the next run
    /// may begin mid-frame.
    @usableFromInline var awaitingFirstRun = true

    /// A decoder at the start of a stream (waiting for the first delimiter), counters zero.
    public init() {}

    /// The port was reopened after an unplug: the unfinished run (cut short) is
    /// dropped, uncounted unless already oversize (`endOfStream()`), the next run may start mid-frame (`partialAtJoin`),
    /// and sample tracking starts afresh (`SampleTracker.rejoin()`), so frames
    /// the board sent to no one are not counted as lost.
    public mutating func linkRestarted() {
        countOversizeRun()
        pendingCount = 0
        discarding = false
        awaitingFirstRun = true
        tracker.rejoin()
    }

    /// The stream ended (the host stops, a replay reached the end of its file).
    /// An unfinished run already longer than any frame is damage whatever would
    /// have followed, so it is counted (`oversizeFrames`, or `partialAtJoin`
    /// as the first run) and dropped; a shorter one is a frame cut short by the
    /// end and stays uncounted, as at `linkRestarted()`.
    public mutating func endOfStream() {
        countOversizeRun()
        pendingCount = 0
    }

    /// Counts an unfinished run that is already oversize, once.
    mutating func countOversizeRun() {
        guard discarding else { return }
        discarding = false
        if awaitingFirstRun { counters.partialAtJoin += 1 } else { counters.oversizeFrames += 1 }
    }

    /// Bytes of an unfinished run waiting for their delimiter.
    public var pendingByteCount: Int { pendingCount }

    /// Decodes `bytes`, calling `deliver` for every valid frame they complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ deliver: (Frame) -> Void) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = bytes.count
        let tables = FrameCRC.tables
        var start = 0
        while start < count {
            let end = Self.delimiter(in: base, from: start, count: count)
            if end == count {
                stash(base + start, count: count - start)
                return
            }
            if pendingCount == 0 && !discarding {
                finishRun(base + start, count: end - start, oversizeHead: nil, tables, deliver)  // the common case: all in this chunk
            } else {
                stash(base + start, count: end - start)
                var copy = pending
                let copyCount = pendingCount
                let oversize = discarding
                pendingCount = 0
                discarding = false
                var headCopy = head
                withUnsafeBytes(of: &copy) { tail in
                    withUnsafeBytes(of: &headCopy) { start in
                        finishRun(
                            tail.baseAddress!.assumingMemoryBound(to: UInt8.self), count: copyCount,
                            oversizeHead: oversize ? start.baseAddress!.assumingMemoryBound(to: UInt8.self) : nil,
                            tables, deliver)
                    }
                }
            }
            start = end + 1
        }
    }

    /// Index of the first 0x00 at or after `start`, or `count`. Eight bytes at a
    /// time: a word has a zero byte iff (w − 0x01…01) & ~w & 0x80…80 ≠ 0, and
    /// the lowest set bit of that marks the first one (little-endian load).
    @inline(__always)
    static func delimiter(in base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            if zeros != 0 { return index + zeros.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < count && base[index] != WireFormat.delimiter { index += 1 }
        return index
    }

    /// Decodes any collection of bytes (copies through a small stack buffer when
    /// it is not contiguous).
    public mutating func feed(_ bytes: some Collection<UInt8>, _ deliver: (Frame) -> Void) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { feed(UnsafeRawBufferPointer($0), deliver) }
        if done != nil { return }
        var chunk: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        var iterator = bytes.makeIterator()
        var more = true
        while more {
            var filled = 0
            withUnsafeMutableBytes(of: &chunk) { buffer in
                while filled < buffer.count, let byte = iterator.next() {
                    buffer[filled] = byte
                    filled += 1
                }
            }
            more = filled == MemoryLayout.size(ofValue: chunk)
            withUnsafeBytes(of: &chunk) { feed(UnsafeRawBufferPointer(rebasing: $0[0..<filled]), deliver) }
        }
    }

    /// Keeps the bytes of an unfinished run. Once the run is longer than any
    /// frame, only its first 24 bytes (`head`) and its last 65 are kept: enough
    /// to recover a frame at its start and one at its end (see `finishRun`).
    mutating func stash(_ bytes: UnsafePointer<UInt8>, count: Int) {
        if count == 0 { return }
        let capacity = WireFormat.maxEncodedCount
        let total = pendingCount + count
        let kept = pendingCount
        let keepHead = total > capacity && !discarding
        var newHead = head
        withUnsafeMutableBytes(of: &pending) { buffer in
            let window = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if keepHead {  // the run turns oversize: its start is about to go
                withUnsafeMutableBytes(of: &newHead) { headBuffer in
                    let start = headBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    let fromWindow = min(kept, headBuffer.count)
                    start.update(from: window, count: fromWindow)
                    (start + fromWindow).update(from: bytes, count: headBuffer.count - fromWindow)
                }
            }
            if total <= capacity {
                (window + kept).update(from: bytes, count: count)
            } else if count >= capacity {
                window.update(from: bytes + (count - capacity), count: capacity)
            } else {
                let keep = capacity - count
                window.update(from: window + (kept - keep), count: keep)
                (window + keep).update(from: bytes, count: count)
            }
        }
        head = newHead
        if total > capacity { discarding = true }
        pendingCount = min(total, capacity)
    }

    /// Unwraps a SAMPLE's time and counts its gaps; nil for a stale frame
    /// (reordered or duplicate), which is counted and dropped.
    @inline(__always) mutating func timed(_ sample: SampleFrame) -> TimedSample? {
        let step = tracker.track(sequence: sample.sequence, boardTime: sample.boardTime)
        counters.samplesDecoded += 1
        switch step.outcome {
        case .accepted:
            counters.lostFrames += step.lost
            return TimedSample(time: step.time, sequence: sample.sequence, raw: sample.raw)
        case .duplicate:
            counters.duplicates += 1
            return nil
        case .reordered:
            counters.lostFrames -= 1  // it was counted lost when a later frame overtook it
            counters.reorderedFrames += 1
            return nil
        }
    }

    /// HELLO restarts the SAMPLE tracking (the board restarts its sequence
    /// and maybe its clock); every other frame passes as it is.
    @inline(__always) mutating func track(_ frame: Frame) -> Frame {
        if case .hello(let hello) = frame { tracker.restart(sampleRateHz: hello.sampleRateHz) }
        return frame
    }
}
