import Foundation
import Testing

/// `tiltserial demo`, the README's first command, run in-process and sped up
/// (the physics runs on board time, so speed does not change the outcome).
@Suite struct DemoTests {
    @Test(arguments: [("pull", 1), ("bump", 0)])
    func nativeDemoPlaysItsScenarioToTheEnd(scenario: String, fires: Int) throws {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(scenario)-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: png) }
        let run = runTiltserial(["demo", "--engine", "native", "--scenario", scenario, "--speed", "10", "--json", "--png", png],
                                seconds: 60)
        #expect(run.code == 0, "\(run.err)")
        let ticks = run.out.split(separator: "\n").filter { !$0.contains("\"event\"") }
        #expect(ticks.count > 300)  // 30 ms ticks over the scenario and its settling time
        #expect(ticks.filter { $0.contains("\"fired\":true") }.count == fires)
        #expect(run.err.contains("demo: \(fires) ribbon pull\(fires == 1 ? "" : "s") fired"))
        let header = try #require(FileManager.default.contents(atPath: png)).prefix(8)
        #expect(Array(header) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func avrDemoRunsOurFirmwareAndFiresThePullOnce() {
        let run = runTiltserial(["demo", "--scenario", "pull", "--speed", "3"], seconds: 120)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains("avr (our firmware in simavr)"), "\(run.err)")
        #expect(run.err.contains("demo: 1 ribbon pull fired"), "\(run.err)")
        #expect(run.err.contains(", 0 lost, 0 errors"), "\(run.err)")
    }

    @Test func unknownScenarioNamesTheChoices() {
        let run = runTiltserial(["demo", "--scenario", "loop-the-loop"])
        #expect(run.code == 21)
        #expect(run.err.contains("no scenario 'loop-the-loop'; choose one of rest,"))
    }
}
