import Foundation
import Testing
import TiltCore
import TiltPipeline
@testable import TiltserialCommand

/// The loss warning names only what happened in the last second.
@Suite struct TroubleLineTests {
    @Test func onlyWhatHappenedIsNamed() {
        let tail = "in the last second (12 lost, 3 errors in all); check the cable, the baud rate and that nothing else reads the port"
        #expect(RunOutput.trouble(lost: 0, errors: 1, totalLost: 12, totalErrors: 3) == "1 frame damaged " + tail)
        #expect(RunOutput.trouble(lost: 12, errors: 0, totalLost: 12, totalErrors: 3) == "12 frames lost " + tail)
        #expect(RunOutput.trouble(lost: 1, errors: 3, totalLost: 12, totalErrors: 3) == "1 frame lost and 3 damaged " + tail)
    }

    /// A replay's loss is the recording's: no cable here to check.
    @Test func aReplaysLossIsTheRecordings() throws {
        var file = Recording.header(baud: 115_200)
        var wire = Stream.hello() + Stream.samples(0..<300).wire
        for k in stride(from: 400, to: wire.count, by: 700) { wire[k] ^= 0x55 }  // damaged in the file
        for (i, start) in stride(from: 0, to: wire.count, by: 200).enumerated() {  // as received, 0.1 s apart
            wire[start..<min(start + 200, wire.count)].withUnsafeBytes {
                Recording.append($0, direction: .fromBoard, at: HostTime(micros: UInt64(i) * 100_000), to: &file)
            }
        }
        let path = tempPath("damaged.tiltrec")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(file)))
        let r = runTiltserial(["replay", path, "--no-config"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("in all); as recorded: lost on the line when it was made, or the file is damaged; record again to have them\n"), "\(r.err)")
        #expect(!r.err.contains("check the cable"), "\(r.err)")
    }
}
