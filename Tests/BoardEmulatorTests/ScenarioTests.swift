import Testing
import TiltPhysics
@testable import BoardEmulator
@testable import TiltMotion

/// Each named scenario through the real physics (see ScenarioRun).
@Suite struct ScenarioTests {
    @Test func everyScenarioHasAUniqueNameAndAScript() {
        #expect(Set(Scenarios.names).count == Scenarios.all.count)
        for name in ["rest", "flat", "tilt-left", "tilt-right", "tilt-forward", "tilt-back", "tour", "pull", "bump", "noise", "shake",
                     "drawer", "drawer-sideways"] {
            #expect(Scenarios.named(name) != nil, "\(name)")
        }
        #expect(Scenarios.named("nope") == nil)
    }

    @Test func restStaysPut() throws {
        let run = try ScenarioRun(Scenarios.rest)
        #expect(run.maxX == 0 && run.maxY == 0)
        #expect(run.fires.isEmpty && run.engagements == 0)
    }

    @Test func flatReadsOneGOnZAndScrollsToTheBottomEdge() throws {
        var flat = Motion(.script(Scenarios.flat))
        for t in stride(from: UInt64(0), through: 10_000_000, by: 2_500_000) {
            #expect(flat.sample(atMicros: t).accel == ConstantMotionSource.faceUp.reading.accel, "at \(t) µs")
        }
        // 60° back from the rest pose: the map slides to its bottom edge, nothing fires.
        let run = try ScenarioRun(Scenarios.flat)
        #expect(run.last.viewportY == run.geometry.maxViewportY && run.maxX == 0)
        #expect(run.fires.isEmpty)
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

    @Test func tourVisitsAllFourCornersThenFiresOnceAndEndsWithAPinDropped() throws {
        let run = try ScenarioRun(Scenarios.tour)
        #expect(run.corners() == ["top-left", "top-right", "bottom-left", "bottom-right"])
        #expect(run.fires.count == 1)
        let fire = try #require(run.fires.first)
        let lastCorner = try #require(run.ticks.last { $0.viewportY == 0 && $0.viewportX == run.geometry.maxViewportX })
        #expect(fire.timeMicros > lastCorner.timeMicros, "the pull comes after the corners")
        #expect(run.pulledOut.count == 1 && run.dropped.count == 1)
        let drop = try #require(run.ticks.first { $0.drawerEvents.dropped != nil })
        #expect(Double(drop.timeMicros) / 1e6 > Scenarios.tour.duration - 3, "the pin is dropped at the end")
        #expect(run.last.drawer.isClosed)
        let fast = try ScenarioRun(Scenarios.tour, rateHz: 1000)
        #expect(fast.fires.count == 1 && fast.dropped.count == 1)
    }

    /// `tiltsim --loop` and `demo --forever` play a scenario again and again on
    /// the same physics: each round must do what one does, so a scenario ends
    /// where it began (the viewport at the top-left, the drawer closed).
    @Test(arguments: ["pull", "bump", "drawer", "tour", "drawer-sideways"])
    func everyRoundOfALoopDoesWhatOneDoes(name: String) throws {
        let script = try #require(Scenarios.named(name))
        let once = try ScenarioRun(script)
        let looped = try ScenarioRun(script, loops: 4)
        #expect(looped.fires.count == 4 * once.fires.count, "\(name): \(looped.fires.map(\.timeMicros))")
        #expect(looped.dropped.count == 4 * once.dropped.count, "\(name)")
        #expect(looped.engagements == 4 * once.engagements, "\(name)")
    }

    @Test func drawerPullsOneItemOutAndDropsItAsOnePin() throws {
        let run = try ScenarioRun(Scenarios.drawer)
        #expect(run.fires.count == 1)
        #expect(run.pulledOut.map(\.drawerEvents.pulledOut) == [3], "the home icon (\(run.trace))")
        let pin = try #require(run.dropped.first)
        #expect(run.dropped.count == 1 && pin.item == 3)
        // Dropped where the dragged icon's centre was, over the held map.
        let drop = try #require(run.ticks.firstIndex { $0.drawerEvents.dropped != nil })
        let dragged = try #require(run.ticks[drop - 1].drawer.dragged)
        #expect(pin == Pin(item: 3, x: run.ticks[drop].viewportX + dragged.left + 8, y: run.ticks[drop].viewportY + dragged.top + 8))
        #expect(run.last.drawer.isClosed && run.last.viewportX == 0, "closed, back at the start")
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func drawerDropsExactlyOnePinWhateverTheNoiseAndRate(seed: UInt64) throws {
        for rate in [100, 1000] {
            let run = try ScenarioRun(Scenarios.drawer, rateHz: rate, noiseSeed: seed)
            #expect(run.fires.count == 1 && run.dropped.count == 1, "seed \(seed), \(rate) Hz")
        }
        #expect(try ScenarioRun(Scenarios.drawer, noiseSeed: seed, hostJoinsAt: 0.2 * Double(seed)).dropped.count == 1)
    }

    @Test(arguments: [0, 1, 2, 3, 4, 5] as [UInt64])
    func drawerSidewaysScrollsTheOpenDrawerAndNeverPullsAnythingOut(seed: UInt64) throws {
        for rate in [100, 1000] {
            let run = try ScenarioRun(Scenarios.drawerSideways, rateHz: rate, noiseSeed: 0x5EED &+ seed)
            #expect(run.fires.count == 2, "one opens the drawer, one closes it")
            #expect(run.pulledOut.isEmpty && run.dropped.isEmpty, "seed \(seed), \(rate) Hz")
            #expect(Set(run.ticks.compactMap(\.drawer.current)).count >= 3, "the swings scrolled through items")
            #expect(run.at(20.8).drawer.shown == 22, "still open after the swings")
            #expect(run.last.drawer.isClosed && run.last.viewportX == 0, "closed, back at the start")
        }
    }

    @Test func shakeNeverFiresNorScrollsVertically() throws {
        let run = try ScenarioRun(Scenarios.shake)
        #expect(run.fires.isEmpty)
        #expect(run.maxY == 0)
        #expect(run.maxX < run.geometry.maxViewportX / 2)
    }
}
