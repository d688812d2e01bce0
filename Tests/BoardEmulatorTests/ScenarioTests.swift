import Testing
import TiltPhysics
@testable import BoardEmulator
@testable import TiltMotion

/// Each named scenario through the real physics (see ScenarioRun).
@Suite struct ScenarioTests {
    @Test func everyScenarioHasAUniqueNameAndAScript() {
        #expect(Set(Scenarios.names).count == Scenarios.all.count)
        for name in ["rest", "tilt-left", "tilt-right", "tilt-forward", "tilt-back", "tour", "pull", "bump", "noise", "shake"] {
            #expect(Scenarios.named(name) != nil, "\(name)")
        }
        #expect(Scenarios.named("nope") == nil)
    }

    @Test func restStaysPut() throws {
        let run = try ScenarioRun(Scenarios.rest)
        #expect(run.maxX == 0 && run.maxY == 0)
        #expect(run.fires.isEmpty && run.engagements == 0)
    }

    @Test func noiseStaysPut() throws {
        let run = try ScenarioRun(Scenarios.noise)
        #expect(run.maxX == 0 && run.maxY == 0)
        #expect(run.fires.isEmpty)
    }

    @Test func tiltRightMovesXUpToTheRightEdge() throws {
        let run = try ScenarioRun(Scenarios.tiltRight)
        #expect(run.at(2).viewportX > run.at(1).viewportX)
        #expect(run.last.viewportX == run.geometry.maxViewportX)
        #expect(run.maxY == 0 && run.fires.isEmpty)
    }

    @Test func tiltLeftMovesXDownToTheLeftEdge() throws {
        let run = try ScenarioRun(Scenarios.tiltLeft)
        #expect(run.at(4.5).viewportX > 100)
        #expect(run.at(7).viewportX < run.at(5.5).viewportX)
        #expect(run.last.viewportX == 0)
        #expect(run.maxY == 0 && run.fires.isEmpty)
    }

    @Test func tiltBackMovesYDownToTheBottomEdge() throws {
        let run = try ScenarioRun(Scenarios.tiltBack)
        #expect(run.at(2).viewportY > run.at(1).viewportY)
        #expect(run.last.viewportY == run.geometry.maxViewportY)
        #expect(run.maxX == 0 && run.fires.isEmpty)
    }

    @Test func tiltForwardMovesYUpIntoTheTopEdgeWithoutTheRibbon() throws {
        let run = try ScenarioRun(Scenarios.tiltForward)
        #expect(run.at(3.2).viewportY > 50)
        #expect(run.at(5).viewportY < run.at(4).viewportY)
        #expect(run.last.viewportY == 0)
        #expect(run.fires.isEmpty && run.engagements == 0)  // pushed into the top edge at x = 0: not over the ribbon
    }

    @Test func pullFiresExactlyOnce() throws {
        let run = try ScenarioRun(Scenarios.pull)
        #expect(run.fires.count == 1)
        #expect(run.engagements == 1)
        #expect((186...197).contains(run.last.viewportX))
        #expect(run.maxY == 0)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func pullFiresOnceWhateverTheNoise(seed: UInt64) throws {
        #expect(try ScenarioRun(Scenarios.pull, noiseSeed: seed).fires.count == 1)
        #expect(try ScenarioRun(Scenarios.pull, rateHz: 1000, noiseSeed: seed).fires.count == 1)
    }

    @Test(arguments: [0.3, 0.7, 1.2] as [Double])
    func pullFiresOnceWhenTheHostJoinsLate(at seconds: Double) throws {
        let run = try ScenarioRun(Scenarios.pull, hostJoinsAt: seconds)
        #expect(run.fires.count == 1)
    }

    @Test func bumpEngagesButNeverFires() throws {
        let run = try ScenarioRun(Scenarios.bump)
        #expect(run.engagements == 1)
        #expect(run.fires.isEmpty)
        let peak = run.ticks.map(\.stretchValue).max() ?? 0
        #expect(peak > 10 && peak < 75)
        for seed: UInt64 in 1...5 {
            #expect(try ScenarioRun(Scenarios.bump, noiseSeed: seed).fires.isEmpty)
        }
    }

    @Test func tourVisitsAllFourCornersAndFiresOnceAtItsEnd() throws {
        let run = try ScenarioRun(Scenarios.tour)
        #expect(run.corners() == ["top-left", "top-right", "bottom-left", "bottom-right"])
        #expect(run.fires.count == 1)
        let fire = try #require(run.fires.first)
        #expect(Double(fire.timeMicros) / 1e6 > Scenarios.tour.duration - 4)
        #expect(try ScenarioRun(Scenarios.tour, rateHz: 1000).fires.count == 1)
    }

    @Test func shakeNeverFiresNorScrollsVertically() throws {
        let run = try ScenarioRun(Scenarios.shake)
        #expect(run.fires.isEmpty)
        #expect(run.maxY == 0)
        #expect(run.maxX < run.geometry.maxViewportX / 2)
    }
}
