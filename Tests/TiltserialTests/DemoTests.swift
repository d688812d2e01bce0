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

    /// The drawer motions end with exactly one pin (`drawer`) and none
    /// (`drawer-sideways`), on the native board and on our firmware in simavr;
    /// the demo keeps no pins file, so each starts with none.
    @Test(arguments: [("native", "drawer", 1), ("native", "drawer-sideways", 0), ("avr", "drawer", 1), ("avr", "drawer-sideways", 0)])
    func drawerDemosEndWithTheirPins(engine: String, scenario: String, pins: Int) {
        let run = runTiltserial(["demo", "--engine", engine, "--scenario", scenario, "--speed", engine == "avr" ? "3" : "10", "--json"],
                                seconds: 180)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains(engine == "avr" ? "avr (our firmware in simavr)" : "native board"), "\(run.err)")
        #expect(run.err.contains("demo: 1 ribbon pull fired, \(pins) pin\(pins == 1 ? "" : "s") dropped, \(pins) on the map"), "\(run.err)")
        let lines = run.out.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"pin\"") }.count == pins)
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"pull_out\"") }.count == pins)
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"drawer\",\"open\":true") }.count == 1)
    }

    @Test func unknownScenarioNamesTheChoices() {
        let run = runTiltserial(["demo", "--scenario", "loop-the-loop"])
        #expect(run.code == 21)
        #expect(run.err.contains("no scenario 'loop-the-loop'; choose one of rest,"))
    }
}
