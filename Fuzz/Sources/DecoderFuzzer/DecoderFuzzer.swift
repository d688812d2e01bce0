import TiltCore
import WireProtocol

// libFuzzer entry (no main.swift). Every invariant failure traps, which
// libFuzzer reports as a crash with the input saved under Fuzz/artifacts/.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkFrameDecoder(bytes)
    checkTextReader(I2CDevLibReader.self, bytes)
    checkTextReader(MotionCalReader.self, bytes)
    checkDetector(bytes)
    return 0
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// Chunk sizes derived from the input itself, so libFuzzer explores splits too.
func chunkSizes(_ bytes: UnsafeRawBufferPointer) -> [Int] {
    guard let first = bytes.first else { return [1] }
    return [Int(first % 7) + 1, Int(first / 7 % 70) + 1, 1, 66]
}

func feedInChunks(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    let sizes = chunkSizes(bytes)
    var start = 0
    var index = 0
    while start < bytes.count {
        let end = min(bytes.count, start + sizes[index % sizes.count])
        body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        start = end
        index += 1
    }
}

func checkFrameDecoder(_ bytes: UnsafeRawBufferPointer) {
    var whole = FrameDecoder()
    var wholeFrames: [Frame] = []
    whole.feed(bytes) { wholeFrames.append($0) }

    var chunked = FrameDecoder()
    var chunkedFrames: [Frame] = []
    feedInChunks(bytes) { chunk in chunked.feed(chunk) { chunkedFrames.append($0) } }

    require(wholeFrames == chunkedFrames, "chunking changed the frames")
    require(whole.counters == chunked.counters, "chunking changed the counters")
    require(whole.pendingByteCount == chunked.pendingByteCount, "chunking changed the pending bytes")
    require(whole.pendingByteCount <= WireFormat.maxEncodedCount, "pending beyond the bound")

    // Independent count of complete non-empty runs.
    var runs: [ArraySlice<UInt8>] = []
    let array = Array(bytes)
    var start = 0
    for (index, byte) in array.enumerated() where byte == 0 {
        if index > start { runs.append(array[start..<index]) }
        start = index + 1
    }
    let counters = whole.counters
    require(counters.recoveredFrames <= counters.framesDecoded, "more recovered than decoded")
    require(counters.recoveredFrames <= 2 * (counters.errors + counters.partialAtJoin), "more than two recovered per damaged run")
    require(counters.runs == UInt64(runs.count), "runs \(counters.runs) != \(runs.count)")
    require(counters.duplicates + counters.reorderedFrames <= counters.samplesDecoded, "more dropped than samples")
    require(counters.deliveredFrames == UInt64(wholeFrames.count), "framesDecoded - dropped SAMPLEs != delivered")
    let samples = wholeFrames.filter { if case .sample = $0 { true } else { false } }.count
    require(counters.samplesDecoded - counters.duplicates - counters.reorderedFrames == UInt64(samples),
            "samplesDecoded - dropped != delivered samples")

    // Every delivered frame is one of the runs, or the start or end of one
    // (recovered), in order, without overlap (COBS is canonical for frames
    // this short, so re-encoding gives the same bytes): nothing is invented.
    var runIndex = 0
    var usedFromStart = 0  // bytes of runs[runIndex] already taken by a frame at its start
    for decoded in wholeFrames {
        let wire = decoded.encoded().dropLast()  // SAMPLE sends its unwrapped time's low 24 bits: the wire's t_us
        var matched = false
        while runIndex < runs.count && !matched {
            let run = runs[runIndex]
            if usedFromStart == 0 && run.elementsEqual(wire) {
                matched = true
                runIndex += 1
            } else if usedFromStart == 0 && run.count > wire.count && run.starts(with: wire) {
                matched = true
                usedFromStart = wire.count
            } else if run.count - usedFromStart >= wire.count && run.suffix(wire.count).elementsEqual(wire) {
                matched = true
                runIndex += 1
                usedFromStart = 0
            } else {
                runIndex += 1
                usedFromStart = 0
            }
        }
        require(matched, "a delivered frame matches no run, run start or run end in order")
    }
}

func checkTextReader<Format>(_ type: TextSampleReader<Format>.Type, _ bytes: UnsafeRawBufferPointer) {
    var whole = TextSampleReader<Format>()
    var wholeSamples: [TimedSample] = []
    whole.feed(bytes, receivedAt: HostTime(micros: 1)) { wholeSamples.append($0) }

    var chunked = TextSampleReader<Format>()
    var chunkedSamples: [TimedSample] = []
    feedInChunks(bytes) { chunk in chunked.feed(chunk, receivedAt: HostTime(micros: 1)) { chunkedSamples.append($0) } }

    require(wholeSamples == chunkedSamples, "chunking changed the samples")
    require(whole.counters == chunked.counters, "chunking changed the counters")
    require(whole.pendingByteCount <= LineAssembler.capacity, "line buffer beyond the bound")

    var lines: UInt64 = 0
    var length = 0
    for byte in bytes {
        if byte == 0x0A || byte == 0x0D {
            if length > 0 { lines += 1 }
            length = 0
        } else {
            length += 1
        }
    }
    let c = whole.counters
    require(c.samples + c.ignoredLines + c.malformedLines + c.overlongLines == lines, "line counters do not add up")
    require(c.samples == UInt64(wholeSamples.count), "samples != delivered")
}

func checkDetector(_ bytes: UnsafeRawBufferPointer) {
    var detector = FormatDetector(limit: 512)
    var result = FormatDetection.undecided
    feedInChunks(bytes) { chunk in result = detector.feed(chunk) }
    let largestChunk = chunkSizes(bytes).max() ?? 1
    require(detector.seenBytes.count < 512 + largestChunk, "detector kept more than limit + one chunk")
    let final = detector.finish()
    if case .found = final {
        // Replaying what the detector kept, then the rest, reads the whole input.
        require(bytes.starts(with: detector.seenBytes), "detector's bytes are not the input's start")
    }
    require(final != .undecided, "finish() left it undecided")
    if result != .undecided { require(final == result, "finish() changed a decision") }
}
