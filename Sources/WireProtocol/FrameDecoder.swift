import TiltCore

/// Streaming decoder for protocol v1 (docs/protocol.md).
///
/// Feed it bytes in chunks of any size; it calls `deliver` once per valid
/// frame, in order, and counts everything else in `counters`. It never
/// allocates: a partial frame waits in a fixed 72-byte buffer, and each run of
/// bytes between two 0x00 delimiters is judged on its own, so any error (bad
/// COBS, bad CRC, oversize, unknown type) costs only that run and the decoder
/// is back in sync at the next delimiter. A frame whose own bytes and both
/// delimiters arrived intact is always decoded, whatever came before it.
///
/// SAMPLE frames are delivered as `TimedSample`, their time unwrapped and gaps
/// counted by `SampleTracker` (whose documentation gives the exact rules).
public struct FrameDecoder: Sendable {
    /// Counters since creation.
    public private(set) var counters = DecoderCounters()
    /// Sequence and time state of the SAMPLE stream.
    public private(set) var tracker = SampleTracker()

    /// Bytes of the current run seen in earlier chunks (at most 65, COBS-encoded).
    @usableFromInline var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline var pendingCount = 0
    /// The current run is already longer than any frame: drop bytes to the next delimiter.
    @usableFromInline var discarding = false

    public init() {}

    /// The port was reopened after an unplug: the unfinished run (cut short) is
    /// dropped uncounted, and sample tracking starts afresh (`SampleTracker.rejoin()`),
    /// so frames the board sent to no one are not counted as lost.
    public mutating func linkRestarted() {
        pendingCount = 0
        discarding = false
        tracker.rejoin()
    }

    /// Bytes of an unfinished run waiting for their delimiter.
    public var pendingByteCount: Int { pendingCount }

    /// Decodes `bytes`, calling `deliver` for every valid frame they complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ deliver: (DecodedFrame) -> Void) {
        let count = bytes.count
        var start = 0
        while start < count {
            var end = start
            while end < count && bytes[end] != WireFormat.delimiter { end += 1 }
            let run = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            if end == count {
                stash(run)
                return
            }
            if pendingCount == 0 && !discarding {
                finishRun(run, deliver)  // the common case: the whole run is in this chunk
            } else {
                stash(run)
                if discarding {
                    counters.oversizeFrames += 1
                } else {
                    var copy = pending
                    let copyCount = pendingCount
                    withUnsafeBytes(of: &copy) { finishRun(UnsafeRawBufferPointer(rebasing: $0[0..<copyCount]), deliver) }
                }
                pendingCount = 0
                discarding = false
            }
            start = end + 1
        }
    }

    /// Decodes any collection of bytes (copies through a small stack buffer when
    /// it is not contiguous).
    public mutating func feed(_ bytes: some Collection<UInt8>, _ deliver: (DecodedFrame) -> Void) {
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

    /// Keeps the bytes of an unfinished run, or starts discarding when it is too long.
    @usableFromInline mutating func stash(_ bytes: UnsafeRawBufferPointer) {
        if discarding || bytes.isEmpty { return }
        let total = pendingCount + bytes.count
        if total > WireFormat.maxEncodedCount {
            discarding = true
            pendingCount = 0
            return
        }
        let offset = pendingCount
        withUnsafeMutableBytes(of: &pending) { buffer in
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<total]).copyMemory(from: bytes)
        }
        pendingCount = total
    }

    /// Judges one complete run (the bytes between two delimiters).
    @usableFromInline mutating func finishRun(_ run: UnsafeRawBufferPointer, _ deliver: (DecodedFrame) -> Void) {
        if run.isEmpty { return }  // two delimiters in a row: idle filler
        if run.count > WireFormat.maxEncodedCount {
            counters.oversizeFrames += 1
            return
        }
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { buffer in
            guard let payloadCount = COBS.decode(run, into: buffer) else {
                counters.framingErrors += 1
                return
            }
            let payload = UnsafeRawBufferPointer(rebasing: buffer[0..<payloadCount])
            switch Frame.parse(payload: payload) {
            case .success(let frame):
                counters.framesDecoded += 1
                deliver(track(frame))
            case .failure(.crcMismatch):
                counters.crcErrors += 1
            case .failure(.unknownType):
                counters.unknownTypes += 1
            case .failure(.tooShort), .failure(.wrongBodyLength):
                counters.framingErrors += 1
            }
        }
    }

    /// Updates sequence and time state; turns SAMPLE into a `TimedSample`.
    @usableFromInline mutating func track(_ frame: Frame) -> DecodedFrame {
        switch frame {
        case .sample(let sample):
            let step = tracker.track(sequence: sample.sequence, boardTime: sample.boardTime)
            counters.samplesDecoded += 1
            counters.lostFrames += step.lost
            if step.duplicate { counters.duplicates += 1 }
            return .sample(TimedSample(timeMicros: step.timeMicros, sequence: sample.sequence, raw: sample.raw))
        case .hello(let hello):
            tracker.restart(sampleRateHz: hello.sampleRateHz)
            return .hello(hello)
        case .pong(let frame): return .pong(frame)
        case .offsets(let frame): return .offsets(frame)
        case .hostHello(let frame): return .hostHello(frame)
        case .ping(let frame): return .ping(frame)
        case .configure(let frame): return .configure(frame)
        }
    }
}
