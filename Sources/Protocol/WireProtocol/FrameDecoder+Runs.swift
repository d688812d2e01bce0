import TiltCore

extension FrameDecoder {
    /// Judges one complete run (the bytes between two delimiters, no 0x00
    /// inside). For a run that grew oversize across chunks, `run` is its last
    /// 65 bytes and `oversizeHead` its first 24. Checks in the order
    /// docs/protocol.md gives: length, COBS, payload length, CRC, type, body
    /// length; each run ends in exactly one error counter or one frame.
    ///
    /// A run that fails for damage (bad COBS, too short, CRC, oversize) may
    /// still hold intact frames whose neighbours' delimiters were lost or that
    /// follow garbage: it is searched for a frame of a known type at its start
    /// and at its end (`recover`). So a frame whose own bytes and delimiter
    /// arrive intact is decoded whatever precedes it, and so is one whose
    /// delimiter was lost, if it starts the run.
    mutating func finishRun(
        _ run: UnsafePointer<UInt8>, count: Int, oversizeHead: UnsafePointer<UInt8>?, _ tables: UnsafePointer<UInt16>,
        _ deliver: (Frame) -> Void
    ) {
        let joining = awaitingFirstRun
        if count == 0 {  // two delimiters in a row: idle filler (and a known frame boundary)
            awaitingFirstRun = false
            return
        }
        awaitingFirstRun = false
        if oversizeHead != nil || count > WireFormat.maxEncodedCount {
            // Longer than 65 bytes, so a frame at the start (≤ 22 bytes) and one
            // at the end cannot overlap, and either may take any known length.
            countDamage(\.oversizeFrames, joining: joining)
            let headCount = MemoryLayout.size(ofValue: head)
            _ = candidate(oversizeHead ?? run, longest: headCount, tables, deliver)
            let tail = min(count, WireFormat.maxEncodedCount)
            recoverAtEnd(run + (count - tail), count: tail, longest: tail, tables, deliver)
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
        if damaged { recover(run, count: count, tables, deliver) }
    }

    /// Counts a damaged run: an error, unless it is the first run after the
    /// decoder started or the link restarted, which is usually the tail of a
    /// frame sent before anyone was listening (`partialAtJoin`).
    private mutating func countDamage(_ counter: WritableKeyPath<DecoderCounters, UInt64>, joining: Bool) {
        if joining { counters.partialAtJoin += 1 } else { counters[keyPath: counter] += 1 }
    }

    /// Looks for complete frames of known types inside a damaged run of at
    /// most 65 bytes: first one starting at its first byte, then one ending at
    /// its last byte, not overlapping; neither may be the whole run (judged
    /// already). Frame lengths are fixed per type (encoded: body + 4), and a
    /// candidate must be valid COBS, carry that type and pass its CRC, so a
    /// false find needs a 2^-16 CRC match and the right type byte. Found frames
    /// count in `framesDecoded` and `recoveredFrames`.
    mutating func recover(
        _ run: UnsafePointer<UInt8>, count: Int, _ tables: UnsafePointer<UInt16>, _ deliver: (Frame) -> Void
    ) {
        let used = candidate(run, longest: count - 1, tables, deliver) ?? 0
        recoverAtEnd(run, count: count, longest: used == 0 ? count - 1 : count - used, tables, deliver)
    }

    /// A frame of at most `longest` bytes ending at the run's last byte.
    private mutating func recoverAtEnd(
        _ run: UnsafePointer<UInt8>, count: Int, longest: Int, _ tables: UnsafePointer<UInt16>,
        _ deliver: (Frame) -> Void
    ) {
        for type in Self.typesLongestFirst {
            let length = type.bodyCount + 4
            if length > longest { continue }
            if tryCandidate(run + (count - length), length: length, type: type, tables, deliver) { return }
        }
    }

    /// A frame starting at `start`: tries every known length up to `longest`;
    /// the length of the one found.
    private mutating func candidate(
        _ start: UnsafePointer<UInt8>, longest: Int, _ tables: UnsafePointer<UInt16>,
        _ deliver: (Frame) -> Void
    ) -> Int? {
        for type in Self.typesLongestFirst {
            let length = type.bodyCount + 4
            if length > longest { continue }
            if tryCandidate(start, length: length, type: type, tables, deliver) { return length }
        }
        return nil
    }

    /// Decodes and delivers `length` encoded bytes at `start` if they are a
    /// valid frame of `type`.
    private mutating func tryCandidate(
        _ start: UnsafePointer<UInt8>, length: Int, type: FrameType, _ tables: UnsafePointer<UInt16>,
        _ deliver: (Frame) -> Void
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

    /// Known frame types, longest encoding first. An intact frame's tail (or
    /// head) can itself be a valid shorter frame (a SAMPLE full of zero bytes
    /// has many COBS code bytes to start one at; then only the CRC's 2^-16
    /// stands between it and a false find), while a longer candidate than the
    /// frame there needs damage bytes that pass the CRC: as unlikely, and
    /// SAMPLEs, the longest a board sends, are nearly every frame. Shortest
    /// first once turned an intact SAMPLE after line noise into a HELLO of
    /// protocol 39 that ended the run.
    static let typesLongestFirst: [FrameType] = FrameType.allCases.sorted { $0.bodyCount > $1.bodyCount }

    /// Delivers a checked payload of `type`; SAMPLE's time unwrapped (or the frame dropped as stale).
    @inline(__always)
    mutating func deliverPayload(_ payload: UnsafePointer<UInt8>, type: FrameType, _ deliver: (Frame) -> Void) {
        if type == .sample {  // the hot path
            let sample = SampleFrame(
                sequence: payload[1], boardTime: UInt32(payload[2]) | UInt32(payload[3]) << 8 | UInt32(payload[4]) << 16,
                raw: FrameCRC.burst(payload + 5))
            if let timed = timed(sample) { deliver(.sample(timed)) }
        } else {
            deliver(track(Frame(type: type, body: UnsafeRawBufferPointer(start: payload + 1, count: type.bodyCount))))
        }
    }
}
