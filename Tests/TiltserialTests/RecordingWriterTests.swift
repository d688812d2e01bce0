import Foundation
import Glibc
import Testing
import TiltCore
import TiltPipeline
@testable import TiltserialCommand

/// `--record`: temporary file, rename at the first board record, errors at once.
@Suite struct RecordingWriterTests {
    func folderEntries(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent))?.sorted() ?? []
    }

    func contents(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }

    func append(_ writer: RecordingWriter, _ bytes: [UInt8], _ direction: Recording.Direction, at t: UInt64) {
        bytes.withUnsafeBytes { writer.append($0, direction, at: HostTime(micros: t)) }
    }

    @Test func aRunThatHearsNothingLeavesAnExistingRecordingAlone() throws {
        let path = tempPath("good.tiltrec")
        let old = Array("an earlier recording".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(old)))
        let writer = try RecordingWriter(path: path, baud: 115_200)
        #expect(folderEntries(path).count == 2)  // the file and the temporary one beside it
        append(writer, [1, 2, 3], .toBoard, at: 5)
        append(writer, [], .linkRestarted, at: 6)
        writer.finish()
        #expect(contents(path) == old)
        #expect(folderEntries(path) == ["good.tiltrec"])
    }

    @Test func theFirstBoardRecordPutsTheFileInPlace() throws {
        let path = tempPath("session.tiltrec")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
        let writer = try RecordingWriter(path: path, baud: 9600)
        append(writer, [9], .toBoard, at: 1)
        append(writer, [7, 7], .fromBoard, at: 2)
        // In place already, so a killed host leaves it (cut short at worst).
        #expect(folderEntries(path) == ["session.tiltrec"])
        append(writer, [8], .fromBoard, at: 3)
        writer.finish()
        let read = try Recording.read(contents(path))
        #expect(read.baud == 9600)
        #expect(read.chunks.map(\.hostTime.micros) == [1, 2, 3])
        #expect(writer.records == 3 && writer.recordsNotWritten == 0 && writer.newFailure == nil)
    }

    @Test func aNewFileGetsTheUsualMode() throws {
        let path = tempPath("new.tiltrec")
        let writer = try RecordingWriter(path: path, baud: 1)
        append(writer, [1], .fromBoard, at: 1)
        writer.finish()
        var info = stat()
        #expect(stat(path, &info) == 0)
        let mask = umask(0o022)
        umask(mask)
        #expect(info.st_mode & 0o777 == 0o666 & ~mask)
    }

    @Test func abandonRemovesTheTemporaryFile() throws {
        let path = tempPath("dropped.tiltrec")
        let writer = try RecordingWriter(path: path, baud: 1)
        append(writer, [1], .toBoard, at: 1)
        writer.abandon()
        #expect(folderEntries(path).isEmpty)
    }

    @Test func unusableTargetsFailAtOnceInOneLine() {
        let missing = tempPath("x") + "-missing/r.tiltrec"
        #expect(throws: Failure.self) { try RecordingWriter(path: missing, baud: 1) }
        do { _ = try RecordingWriter(path: "/dev/full", baud: 1); Issue.record("/dev/full accepted") } catch {
            #expect(error.code == .badFile)
            #expect(error.message == "/dev/full: cannot write the recording (No space left on device); check the path and permissions")
        }
        let folder = (tempPath("d") as NSString).deletingLastPathComponent
        do { _ = try RecordingWriter(path: folder, baud: 1); Issue.record("a directory accepted") } catch {
            #expect(error.message == "\(folder): is a directory; name a file for --record")
        }
        do { _ = try RecordingWriter(path: "", baud: 1); Issue.record("an empty name accepted") } catch {
            #expect(error.code == .badFile)
            #expect(error.message == "--record: an empty file name; name the recording, e.g. --record session.tiltrec")
        }
    }

    @Test func aWriteErrorIsReportedOnceWhenItHappensAndCounted() throws {
        // A FIFO whose reader never reads: the pipe fills, the next write fails (EAGAIN), the run goes on.
        let fifo = tempPath("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let writer = try RecordingWriter(path: fifo, baud: 1)
        let block = [UInt8](repeating: 0x55, count: 4000)
        var failures: [String] = []
        for i in 0..<40 {
            append(writer, block, .fromBoard, at: UInt64(i))
            if let message = writer.newFailure { failures.append(message) }
        }
        #expect(failures == ["\(fifo): cannot write the recording (Resource temporarily unavailable); recording stopped, the run goes on"])
        #expect(writer.failed)
        #expect(writer.records == 40)
        #expect(writer.recordsNotWritten > 20)
        #expect(writer.bytesNotWritten == writer.recordsNotWritten * (block.count + Recording.recordHeaderSize))
        writer.finish()
    }

    @Test func aMissingPortLeavesTheRecordingUntouched() throws {
        let path = tempPath("good.tiltrec")
        let old = Array("keep me".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(old)))
        let r = runTiltserial(["/dev/ttyUSB9-not-here", "--record", path])
        #expect(r.code == 10)
        #expect(contents(path) == old)
        #expect(folderEntries(path) == ["good.tiltrec"])
    }
}
