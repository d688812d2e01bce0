import TiltCore

extension FrameDecoder {
    /// Judges one complete run (the bytes between two delimiters, no 0x00
    /// inside; for an oversize run, its last 65 bytes). Checks in the order
    /// docs/protocol.md gives: length, COBS, payload length, CRC, type, body
    /// length; each run ends in exactly one error counter or one frame.
    ///
    /// A run that fails for damage (bad COBS, too short, CRC, oversize) may
    /// still hold intact frames whose neighbours' delimiters were lost or that
    /// follow garbage: it is searched for a frame of a known type at its start
    /// and at its end (`recover`). So a frame whose own bytes and delimiter
    /// arrive intact is decoded whatever precedes it.
    mutating func finishRun(
        _ run: UnsafePointer<UInt8>, count: Int, oversize: Bool, _ tables: UnsafePointer<UInt16>,
        _ deliver: (DecodedFrame) -> Void
    ) {
        let joining = awaitingFirstRun
        if count == 0 {  // two delimiters in a row: idle filler (and a known frame boundary)
            awaitingFirstRun = false
            return
        }
        awaitingFirstRun = false
        if oversize || count > WireFormat.maxEncodedCount {
            countDamage(\.oversizeFrames, joining: joining)
            let tail = min(count, WireFormat.maxEncodedCount)
            recover(run + (count - tail), count: tail, atStart: false, tables, deliver)
            return
        }
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        let damaged: Bool = withUnsafeMutableBytes(of: &scratch) { buffer in
            let payload = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let payloadCount = FrameCRC.decode(run, count: count, into: payload)
            guard payloadCount >= WireFormat.minPayloadCount else {
                countDamage(\.framingErrors, joining: joining)  // bad COBS (-1) or shorter than type + CRC
                return true
            }
            guard FrameCRC.checksum(payload, count: payloadCount, tables: tables) == 0 else {
                countDamage(\.crcErrors, joining: joining)
                return true
            }
            // The CRC holds: a frame as sent, so no recovery from here on.
            guard let type = FrameType(rawValue: payload[0]) else {
                counters.unknownTypes += 1
                return false
            }
            guard payloadCount - WireFormat.minPayloadCount == type.bodyCount else {
                counters.framingErrors += 1
                return false
            }
            counters.framesDecoded += 1
            deliverPayload(payload, type: type, deliver)
            return false
        }
        if damaged { recover(run, count: count, atStart: true, tables, deliver) }
    }

    /// Counts a damaged run: an error, unless it is the first run after the
    /// decoder started or the link restarted, which is usually the tail of a
    /// frame sent before anyone was listening (`partialAtJoin`).
    private mutating func countDamage(_ counter: WritableKeyPath<DecoderCounters, UInt64>, joining: Bool) {
        if joining { counters.partialAtJoin += 1 } else { counters[keyPath: counter] += 1 }
    }

    /// Looks for complete frames of known types inside a damaged run: first
    /// one starting at its first byte (if `atStart`), then one ending at its
    /// last byte, not overlapping. Frame lengths are fixed per type (encoded:
    /// body + 4), and a candidate must be valid COBS, carry that type and pass
    /// its CRC, so a false find needs a 2^-16 CRC match and the right type byte.
    /// Found frames count in `framesDecoded` and `recoveredFrames`.
    mutating func recover(
        _ run: UnsafePointer<UInt8>, count: Int, atStart: Bool, _ tables: UnsafePointer<UInt16>,
        _ deliver: (DecodedFrame) -> Void
    ) {
        var used = 0
        if atStart, let length = candidate(run, available: count, tables, deliver) {
            used = length
        }
        // The whole run was judged already: a suffix must be shorter than it,
        // and must not overlap the frame found at the start.
        let limit = used == 0 ? count - 1 : count - used
        for type in Self.typesByEncodedLength {
            let length = type.bodyCount + 4
            if length > limit { break }
            if tryCandidate(run + (count - length), length: length, type: type, tables, deliver) { return }
        }
    }

    /// A frame starting at `start`: tries every known length that fits.
    private mutating func candidate(
        _ start: UnsafePointer<UInt8>, available: Int, _ tables: UnsafePointer<UInt16>,
        _ deliver: (DecodedFrame) -> Void
    ) -> Int? {
        for type in Self.typesByEncodedLength {
            let length = type.bodyCount + 4
            if length >= available { break }
            if tryCandidate(start, length: length, type: type, tables, deliver) { return length }
        }
        return nil
    }

    /// Decodes and delivers `length` encoded bytes at `start` if they are a
    /// valid frame of `type`.
    private mutating func tryCandidate(
        _ start: UnsafePointer<UInt8>, length: Int, type: FrameType, _ tables: UnsafePointer<UInt16>,
        _ deliver: (DecodedFrame) -> Void
    ) -> Bool {
        // Cheap filter: the type byte follows the first code unless that code is 1 (type 0x00).
        guard start[0] > 1, start[1] == type.rawValue else { return false }
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &scratch) { buffer in
            let payload = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            guard FrameCRC.decode(start, count: length, into: payload) == length - 1,
                  FrameCRC.checksum(payload, count: length - 1, tables: tables) == 0
            else { return false }
            counters.framesDecoded += 1
            counters.recoveredFrames += 1
            deliverPayload(payload, type: type, deliver)
            return true
        }
    }

    /// Known frame types, shortest encoding first.
    static let typesByEncodedLength: [FrameType] = FrameType.allCases.sorted { $0.bodyCount < $1.bodyCount }

    /// Delivers a checked payload of `type`; SAMPLE goes straight to a `TimedSample`.
    @inline(__always)
    mutating func deliverPayload(_ payload: UnsafePointer<UInt8>, type: FrameType, _ deliver: (DecodedFrame) -> Void) {
        if type == .sample {  // the hot path
            let sample = SampleFrame(
                sequence: payload[1], boardTime: UInt32(payload[2]) | UInt32(payload[3]) << 8 | UInt32(payload[4]) << 16,
                raw: FrameCRC.burst(payload + 5))
            deliver(.sample(timed(sample)))
        } else {
            deliver(track(Frame(type: type, body: UnsafeRawBufferPointer(start: payload + 1, count: type.bodyCount))))
        }
    }
}
