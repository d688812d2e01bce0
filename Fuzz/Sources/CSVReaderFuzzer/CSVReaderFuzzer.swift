import TiltCore

// libFuzzer entry for TiltCore.SampleCSVReader (no main.swift). Invariants:
// never traps; any chunking gives the same samples and the same error; every
// sample is in range and in time order; an error message is one short line.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let whole = read(bytes, chunk: max(1, size))
    let first = bytes.first ?? 0
    for chunk in [1, Int(first % 7) + 2, Int(first / 7 % 70) + 1, 4096] {
        let split = read(bytes, chunk: chunk)
        require(split.samples == whole.samples, "chunks of \(chunk) changed the samples")
        require(split.error == whole.error, "chunks of \(chunk) changed the error")
    }
    var previous: UInt64 = 0
    for (index, sample) in whole.samples.enumerated() {
        require(sample.timeMicros <= SampleCSVReader.maxTimeMicros, "time beyond the range")
        require(sample.timeMicros >= previous, "time went back")
        require(sample.sequence == UInt8(truncatingIfNeeded: index), "sequence out of order")
        previous = sample.timeMicros
    }
    if let error = whole.error {
        require(!error.reason.contains("\n") && !error.reason.contains("\r"), "a message of several lines")
        require(error.reason.utf8.count < 200, "a long message")
        require(error.line >= 1, "line numbers start at 1")
    }
    // A document that read cleanly reads the same through the in-memory parser.
    if whole.error == nil, let parsed = try? SampleCSV.parse(bytes: Array(bytes)) {
        require(parsed == whole.samples, "parse(bytes:) differs from the reader")
    }
    return 0
}

func read(_ bytes: UnsafeRawBufferPointer, chunk: Int) -> (samples: [TimedSample], error: SampleCSV.ParseError?) {
    var reader = SampleCSVReader()
    var samples: [TimedSample] = []
    do throws(SampleCSV.ParseError) {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try reader.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) { samples.append($0) }
            start = end
        }
        try reader.finish { samples.append($0) }
        return (samples, nil)
    } catch {
        return (samples, error)
    }
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
