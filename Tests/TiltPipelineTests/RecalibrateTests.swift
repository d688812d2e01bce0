import TiltCore
import TiltMotion
import TiltPhysics
import WireProtocol
@testable import TiltPipeline

import Testing

/// The live view's `c`: `HostDriver.recalibrate` makes the current smoothed
/// pose the rest pose, so a board held still there stops scrolling.
@Suite struct RecalibrateTests {
    /// Raw counts (MPU-6050 convention: +1 g up) for a board `degrees` from face-up toward face-forward
    /// (the host's convention; `Pose` counts `back` from upright).
    static func pose(_ degrees: Double) -> RawSample {
        RawSample(accel: Pose(back: 90 - degrees).accelCounts())
    }

    /// HELLO and `seconds` of 1 kHz samples of `raw`, from board time `start`.
    static func stream(_ raw: RawSample, seconds: Double, start: UInt32, firstSequence: Int = 0, hello: Bool) -> [UInt8] {
        var wire = hello ? Fixture.hello().encoded() : []
        for i in 0..<Int(seconds * 1000) {
            SampleFrame(sequence: UInt8(truncatingIfNeeded: firstSequence + i), boardTime: start + UInt32(i) * 1000, raw: raw).encode(into: &wire)
        }
        return wire
    }

    struct Run {
        var driver: HostDriver
        var news: [HostNews] = []
        var ticks: [Tick] = []

        init(_ settings: PhysicsSettings = PhysicsSettings()) {
            driver = HostDriver(session: Fixture.session(settings), configuration: HostDriver.Configuration())
            driver.portOpened(at: .zero) { _ in }
        }

        mutating func receive(_ bytes: [UInt8], at time: UInt64) {
            var emitted: [HostAction] = []
            driver.received(bytes, at: HostTime(micros: time)) { emitted.append($0) }
            record(emitted)
        }

        /// What each `recalibrate` said, in order (nothing once the run finished).
        var outcomes: [Recalibration] = []

        mutating func recalibrate(at time: UInt64) {
            if let outcome = driver.recalibrate(at: HostTime(micros: time)) { outcomes.append(outcome) }
        }

        mutating func record(_ actions: [HostAction]) {
            for action in actions {
                switch action {
                case .news(let n): news.append(n)
                case .event(.tick(let t, _)): ticks.append(t)
                default: break
                }
            }
        }
    }

    @Test func aBoardHeldStillAfterCStopsScrollingWhereItIs() throws {
        // 50° from face-up: 10° short of the default rest pose, so the view scrolls.
        let held = Self.pose(50)
        var calibrated = Run(), control = Run()
        let first = Self.stream(held, seconds: 2, start: 1_000, hello: true)
        calibrated.receive(first, at: 1_000)
        control.receive(first, at: 1_000)
        calibrated.recalibrate(at: 2_000_000)
        guard case .restPose(let degrees)? = calibrated.outcomes.last else {
            Issue.record("outcomes: \(calibrated.outcomes)")
            return
        }
        #expect(abs(degrees - 50) < 0.5, "the rest pose is the held pose: \(degrees)°")
        #expect(abs(calibrated.driver.snapshot(at: HostTime(micros: 2_000_000)).restDegrees - degrees) < 1e-9)
        #expect(abs(control.driver.snapshot(at: HostTime(micros: 2_000_000)).restDegrees - 60) < 1e-6)
        let c0 = try #require(control.ticks.last)

        let before = try #require(calibrated.ticks.last)
        let more = Self.stream(held, seconds: 2, start: 2_001_000, firstSequence: 2000, hello: false)
        calibrated.receive(more, at: 2_100_000)
        control.receive(more, at: 2_100_000)
        let after = try #require(calibrated.ticks.last)
        #expect(calibrated.ticks.count > 100)
        #expect(after.viewportX == before.viewportX && after.viewportY == before.viewportY,
                "held at the new rest pose, the view stays: \(before.viewportY) → \(after.viewportY)")
        let c1 = try #require(control.ticks.last)
        #expect(c1.viewportY > c0.viewportY, "without c the same pose keeps scrolling: \(c0.viewportY) → \(c1.viewportY)")
    }

    @Test func recipeModeKeepsItsRestPoseAndSaysSo() {
        var settings = PhysicsSettings()
        settings.mode = .recipe
        var run = Run(settings), control = Run(settings)
        let wire = Self.stream(Self.pose(20), seconds: 1, start: 1_000, hello: true)
        run.receive(wire, at: 1_000)
        control.receive(wire, at: 1_000)
        run.recalibrate(at: 1_000_000)
        #expect(run.outcomes == [.fixedInRecipeMode] && run.news.isEmpty)
        let more = Self.stream(Self.pose(20), seconds: 1, start: 1_001_000, firstSequence: 1000, hello: false)
        run.receive(more, at: 1_100_000)
        control.receive(more, at: 1_100_000)
        #expect(run.ticks == control.ticks, "nothing changed")
    }

    @Test func beforeAnySampleAndOnItsSideNothingChanges() {
        var run = Run()
        run.recalibrate(at: 10)
        #expect(run.outcomes == [.noSampleYet] && run.news.isEmpty)
        let side = RawSample(accel: Axes3(x: 16384, y: 0, z: 0))
        run.receive(Self.stream(side, seconds: 0.5, start: 1_000, hello: true), at: 1_000)
        run.recalibrate(at: 600_000)
        #expect(run.outcomes.last == .onItsSide)
        #expect(abs(run.driver.snapshot(at: HostTime(micros: 600_000)).restDegrees - 60) < 1e-6)
    }

    @Test func theSnapshotCarriesTheLastSampleAsReceived() {
        var run = Run()
        #expect(run.driver.snapshot(at: .zero).lastSample == nil)
        var wire = Fixture.hello(accel: 1).encoded()
        let raw = RawSample(accel: Axes3(x: 1, y: -2, z: 8192), temperature: -1600, gyro: Axes3(x: 131, y: -262, z: 0))
        SampleFrame(sequence: 0, boardTime: 5_000, raw: RawSample(accel: Axes3(x: 0, y: 0, z: 0))).encode(into: &wire)
        SampleFrame(sequence: 1, boardTime: 6_000, raw: raw).encode(into: &wire)
        run.receive(wire, at: 10_000)
        let snapshot = run.driver.snapshot(at: HostTime(micros: 10_000))
        #expect(snapshot.lastSample == TimedSample(timeMicros: 6_000, sequence: 1, raw: raw))
        #expect(snapshot.converter.accelRange == .g4, "HELLO's range, for the panel's g")
        #expect(snapshot.fireThreshold == 75 && snapshot.mode == .smooth)
    }

    @Test func aFinishedRunIgnoresIt() {
        var run = Run()
        run.driver.stop(at: HostTime(micros: 5)) { _ in }
        run.recalibrate(at: 6)
        #expect(run.outcomes.isEmpty)
        #expect(run.news.isEmpty)
    }
}
