import Foundation
import Testing
import TiltCore

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
