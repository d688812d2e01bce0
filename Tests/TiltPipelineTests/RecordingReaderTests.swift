import TiltCore
import Testing
@testable import TiltPipeline

/// The streaming recording reader: any chunking reads the same records as the whole file.
@Suite struct RecordingReaderTests {
    struct Seen: Equatable {
        var direction: Recording.Direction
        var hostMicros: UInt64
        var bytes: [UInt8]
        var offset: Int
    }

    static func sampleFile() -> [UInt8] {
        var file = Recording.header(baud: 115_200)
        [UInt8(1), 2, 3].withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: 42), to: &file) }
        [UInt8]().withUnsafeBytes { Recording.append($0, direction: .linkRestarted, at: HostTime(micros: 43), to: &file) }
        (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }.withUnsafeBytes {
            Recording.append($0, direction: .toBoard, at: HostTime(micros: 1 << 40), to: &file)
        }
        [UInt8](repeating: 9, count: 300).withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: .max), to: &file) }
        return file
    }

    func stream(_ file: [UInt8], chunk: Int) -> (seen: [Seen], truncated: Int?, error: Recording.ReadError?, baud: UInt32?) {
        var reader = Recording.Reader()
        var seen: [Seen] = []
        do {
            var start = 0
            while start < file.count {
                let end = min(file.count, start + chunk)
                try file[start..<end].withUnsafeBytes { raw in
                    try reader.feed(raw) { seen.append(Seen(direction: $0.direction, hostMicros: $0.hostTime.micros, bytes: Array($0.bytes), offset: $0.offset)) }
                }
                start = end
            }
            let truncated = try reader.finish()
            return (seen, truncated, nil, reader.baud)
        } catch {
            return (seen, nil, error as? Recording.ReadError, reader.baud)
        }
    }

    @Test func anyChunkingReadsTheSameRecordsAsTheWholeFile() throws {
        let file = Self.sampleFile()
        let contents = try Recording.read(file)
        let expected = contents.chunks.map { Seen(direction: $0.direction, hostMicros: $0.hostTime.micros, bytes: Array(file[$0.range]), offset: $0.range.lowerBound) }
        #expect(expected.count == 5)
        for size in [1, 3, 11, 12, 13, 4096, 65_536, file.count] {
            let r = stream(file, chunk: size)
            #expect(r.seen == expected, "chunks of \(size)")
            #expect(r.truncated == 0)
            #expect(r.baud == 115_200)
        }
        // Cut anywhere: the whole records before the cut, and what is left over.
        for cut in [12, 13, 22, 23, 25, 26, 40, 70_000, file.count - 1] {
            let r = stream(Array(file[0..<cut]), chunk: 5)
            let whole = expected.filter { $0.offset + $0.bytes.count <= cut }
            #expect(r.seen == whole, "cut at \(cut)")
            let used = whole.last.map { $0.offset + $0.bytes.count } ?? 12
            #expect(r.truncated == cut - used, "cut at \(cut)")
        }
    }

    @Test func aFileTooShortForTheHeaderIsAnError() {
        for text in ["TILTR", "TILTREC1", "TILTREC1\u{1}\u{2}\u{3}", ""] {
            #expect(stream(Array(text.utf8), chunk: 2).error == .tooShort(bytes: text.utf8.count), "\(text.debugDescription)")
            #expect(throws: Recording.ReadError.tooShort(bytes: text.utf8.count)) { try Recording.read(Array(text.utf8)) }
        }
        #expect(Recording.ReadError.tooShort(bytes: 5).description
            == "too short for a tiltserial recording (5 bytes; its header alone is 12)")
        #expect(Recording.ReadError.tooShort(bytes: 1).description == "too short for a tiltserial recording (1 byte; its header alone is 12)")
        // A wrong first byte says so at once, without waiting for the rest.
        var reader = Recording.Reader()
        #expect(throws: Recording.ReadError.notARecording) {
            try [UInt8(ascii: "T"), UInt8(ascii: "X")].withUnsafeBytes { raw in try reader.feed(raw) { _ in } }
        }
    }

    @Test func aBadDirectionNamesItsOffsetAndSticks() {
        var file = Self.sampleFile()
        let bad = file.count
        file += [7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        for size in [1, 4096, file.count] {
            let r = stream(file, chunk: size)
            #expect(r.error == .badDirection(offset: bad))
            #expect(r.seen.count == 5)
        }
    }
}
