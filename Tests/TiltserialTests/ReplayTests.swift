import Foundation
import Testing
import TiltCore
import TiltPipeline

@Suite struct ReplayTests {
    @Test func csvReplayPrintsTheRecipesTicksAndRendersThePNG() throws {
        let stream = Stream.heldTilt(0..<2000)
        var csv = "t_us,ax,ay,az,gx,gy,gz\n"
        for s in stream.samples { csv += SampleCSV.line(s) + "\n" }
        let file = tempPath("motion.csv"), png = tempPath("final.png")
        try Data(csv.utf8).write(to: URL(fileURLWithPath: file))
        let r = runTiltserial(["replay", file, "--json", "--render", png, "--physics", "recipe"])
        #expect(r.code == 0)
        let expected = Stream.recipeOffsets(forHeldTilt: 2000)
        #expect(expected.count == 66)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == expected.count)
        for (line, frame) in zip(lines, expected) {
            #expect(line.contains("\"px\":\(frame.viewportX),\"py\":\(frame.viewportY),"))
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(r.err.contains("\(expected.count) ticks"))
    }

    /// A FIFO nobody reads as --render's file: one line and exit 18 at once
    /// (open blocked until Ctrl-C, which then lost the summary).
    @Test func renderingToAPipeNobodyReadsFailsAtOnce() throws {
        var csv = "t_us,ax,ay,az,gx,gy,gz\n"
        for s in Stream.heldTilt(0..<200).samples { csv += SampleCSV.line(s) + "\n" }
        let file = tempPath("short.csv"), fifo = tempPath("render.fifo")
        try Data(csv.utf8).write(to: URL(fileURLWithPath: file))
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let r = runTiltserial(["replay", file, "--render", fifo, "--no-config"], seconds: 20)
        #expect(r.code == 18, "\(r.err)")
        #expect(r.err.hasSuffix("tiltserial: error: \(fifo): a pipe nobody reads; start its reader first, or name a file\n"), "\(r.err)")
    }

    /// A --render path that cannot be written is said before the replay, not
    /// after it (a 200 MB replay said so only at its end, its summary lost).
    @Test func aRenderPathThatCannotBeWrittenIsSaidFirst() throws {
        let file = tempPath("drawer.csv")
        try Data(PinsTests.drawerCSV().utf8).write(to: URL(fileURLWithPath: file))
        let png = "/nonexistent-tiltserial-folder/final.png"
        let r = runTiltserial(["replay", file, "--render", png, "--no-config"])
        #expect(r.code == 18, "\(r.err)")
        #expect(r.err == "tiltserial: error: \(png): cannot write the PNG (no such folder /nonexistent-tiltserial-folder); create it or name another file\n")
        let folder = (file as NSString).deletingLastPathComponent
        let intoFolder = runTiltserial(["replay", file, "--render", folder, "--no-config"])
        #expect(intoFolder.code == 18 && intoFolder.err == "tiltserial: error: \(folder): is a directory; name a .png file\n", "\(intoFolder.err)")
        // A disk that fills under the PNG: the summary of the replay comes first, then the error.
        let full = runTiltserial(["replay", file, "--render", "/dev/full", "--no-config"])
        #expect(full.code == 18, "\(full.err)")
        #expect(full.err.contains("tiltserial: replayed: ") && full.err.hasSuffix("\ntiltserial: error: /dev/full: writing the PNG failed part way (disk full?)\n"), "\(full.err)")
    }

    /// A recording with its header and no valid frame is a file that cannot
    /// be used (18, as the docs list replay files), not a silent link (15).
    @Test func aRecordingWithoutAValidFrameIsABadFile() throws {
        let file = tempPath("empty.tiltrec")
        try Data(Recording.header(baud: 115_200)).write(to: URL(fileURLWithPath: file))
        let r = runTiltserial(["replay", file, "--no-config"])
        #expect(r.code == 18, "\(r.err)")
        #expect(r.err.contains("\(file): the recording holds no valid frames"), "\(r.err)")
    }

    @Test func physicsOptionsApplyToReplays() throws {
        let stream = Stream.heldTilt(0..<2000)
        var csv = ""
        for s in stream.samples { csv += SampleCSV.line(s) + "\n" }
        let file = tempPath("motion.csv")
        try Data(csv.utf8).write(to: URL(fileURLWithPath: file))
        let r = runTiltserial(["replay", file, "--json", "--physics", "recipe", "--tick-ms", "20"])
        #expect(r.code == 0)
        let expected = Stream.recipeOffsets(forHeldTilt: 2000, tickMicros: 20_000)
        #expect(expected.count == 99, "20 ms ticks: ⌊1 999 000 / 20 000⌋, not the default's 66")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == expected.count)
        #expect(zip(lines, expected).allSatisfy { $0.contains("\"px\":\($1.viewportX),\"py\":\($1.viewportY),") })
    }
}
