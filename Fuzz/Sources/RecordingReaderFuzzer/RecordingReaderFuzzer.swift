import TiltPipeline

// libFuzzer entry for TiltPipeline.Recording.Reader (no main.swift). Invariants:
// never traps; any chunking gives the same records, leftover and error; records
// tile the file from byte 12 in order; what is left over is less than a record.

struct Seen: Equatable {
    var direction: UInt8
    var hostMicros: UInt64
    var offset: Int
    var bytes: [UInt8]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Most inputs would fail the magic at once: let the first byte choose to prepend a valid header.
    var input = Array(UnsafeBufferPointer(start: data, count: size))
    if let first = input.first, first & 1 == 1 { input = Recording.header(baud: 115_200) + input.dropFirst() }
    let whole = read(input, chunk: max(1, input.count))
    let key = input.last ?? 0
    for chunk in [1, Int(key % 13) + 2, Int(key / 13 % 19) + 11, 65_536] {
        let split = read(input, chunk: chunk)
        require(split.seen == whole.seen, "chunks of \(chunk) changed the records")
        require(split.leftover == whole.leftover, "chunks of \(chunk) changed the leftover")
        require(split.error == whole.error, "chunks of \(chunk) changed the error")
    }
    var next = Recording.headerSize
    for record in whole.seen {
        require(record.offset == next + Recording.recordHeaderSize, "records do not tile the file")
        require(Array(input[record.offset..<(record.offset + record.bytes.count)]) == record.bytes, "bytes not the file's")
        next = record.offset + record.bytes.count
    }
    if let leftover = whole.leftover {
        require(next + leftover == input.count, "records and leftover do not cover the file")
        require(leftover < Recording.recordHeaderSize + 65_536, "leftover beyond one record")
        // The in-memory reader agrees.
        if let contents = try? Recording.read(input) {
            require(contents.truncatedBytes == leftover && contents.chunks.count == whole.seen.count, "read() differs")
        } else {
            require(false, "read() failed where the stream did not")
        }
    }
    if let error = whole.error { require(!error.description.contains("\n"), "a message of several lines") }
    return 0
}

func read(_ input: [UInt8], chunk: Int) -> (seen: [Seen], leftover: Int?, error: Recording.ReadError?) {
    var reader = Recording.Reader()
    var seen: [Seen] = []
    let result: Result<Int, Recording.ReadError> = input.withUnsafeBytes { bytes in
        Result { () throws(Recording.ReadError) in
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunk)
                try reader.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) {
                    seen.append(Seen(direction: $0.direction.rawValue, hostMicros: $0.hostTime.micros, offset: $0.offset, bytes: Array($0.bytes)))
                }
                start = end
            }
            return try reader.finish()
        }
    }
    switch result {
    case .success(let leftover): return (seen, leftover, nil)
    case .failure(let error): return (seen, nil, error)
    }
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
