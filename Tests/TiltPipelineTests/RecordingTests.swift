import TiltCore
import Testing
@testable import TiltPipeline

@Suite struct RecordingTests {
    @Test func roundTripsChunksAndSplitsLongOnes() throws {
        var file = Recording.header(baud: 115_200)
        let small: [UInt8] = [0, 1, 2, 0xFF]
        let long = [UInt8](repeating: 0xA5, count: 70_000)
        small.withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: 42), to: &file) }
        long.withUnsafeBytes { Recording.append($0, direction: .toBoard, at: HostTime(micros: 1 << 40), to: &file) }

        let contents = try Recording.read(file)
        #expect(contents.baud == 115_200)
        #expect(contents.truncatedBytes == 0)
        #expect(contents.chunks.map(\.direction) == [.fromBoard, .toBoard, .toBoard])
        #expect(contents.chunks.map(\.hostTime.micros) == [42, 1 << 40, 1 << 40])
        #expect(Array(file[contents.chunks[0].range]) == small)
        #expect(contents.chunks[1].range.count == 65535)
        #expect(contents.chunks[1...].flatMap { file[$0.range] } == long)
    }

    @Test func aCutShortFileKeepsItsWholeRecords() throws {
        var file = Recording.header(baud: 9600)
        [UInt8](repeating: 7, count: 10).withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: 1), to: &file) }
        [UInt8](repeating: 8, count: 10).withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: 2), to: &file) }
        let cut = Array(file.dropLast(4))
        let contents = try Recording.read(cut)
        #expect(contents.chunks.count == 1)
        #expect(contents.truncatedBytes == Recording.recordHeaderSize + 6)
    }

    @Test func rejectsOtherFiles() {
        #expect(throws: Recording.ReadError.notARecording) { try Recording.read(Array("t_us,ax,ay,az\n".utf8)) }
        var file = Recording.header(baud: 1)
        file += [9] + [UInt8](repeating: 0, count: 10)
        #expect(throws: Recording.ReadError.badDirection(offset: 12)) { try Recording.read(file) }
    }
}

@Suite struct RecordingLinkRestartTests {
    @Test func aLinkRestartIsAnEmptyRecordOfItsOwn() throws {
        var file = Recording.header(baud: 9600)
        [UInt8]().withUnsafeBytes { Recording.append($0, direction: .linkRestarted, at: HostTime(micros: 7), to: &file) }
        [UInt8(1)].withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: 8), to: &file) }
        let contents = try Recording.read(file)
        #expect(contents.chunks.map(\.direction) == [.linkRestarted, .fromBoard])
        #expect(contents.chunks[0].range.isEmpty)
        #expect(file.count == Recording.headerSize + 2 * Recording.recordHeaderSize + 1)
    }
}
