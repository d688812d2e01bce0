import Foundation
import Testing
import TiltCore
import TiltMotion
import TiltPhysics

@Suite struct SmoothModeTests {
    /// A wandering hand: pitch and roll swing around the rest pose and far out.
    static func wander(_ t: Double) -> Pose {
        Pose(back: 40 - 25 * sin(2 * .pi * t / 7) - 10 * sin(2 * .pi * t / 2.3),
             right: 12 + 25 * sin(2 * .pi * t / 5) + 8 * sin(2 * .pi * t / 1.7))
    }

    /// Largest difference in normalized offset between two runs, tick by tick.
    static func maxDifference(_ a: [Tick], _ b: [Tick]) -> Double {
        zip(a, b).map { max(abs($0.xValue - $1.xValue), abs($0.yValue - $1.yValue)) }.max() ?? .infinity
    }

    /// The documented tolerance (docs/physics.md): 0.004 of the travel (1.5 px of x, 0.8 px of y).
    static let rateTolerance = 0.004

    @Test(arguments: [50.0, 73.0, 100.0, 200.0, 333.0]) func sameMotionAtAnotherRateGivesTheSameTrajectory(_ hz: Double) {
        let reference = Fixtures.run(Motion.sampled(hz: 1000, seconds: 20, Self.wander))
        let ticks = Fixtures.run(Motion.sampled(hz: hz, seconds: 20, Self.wander))
        #expect(ticks.count >= reference.count - 1 && ticks.count <= reference.count)
        #expect(zip(ticks, reference).allSatisfy { $0.timeMicros == $1.timeMicros })
        let difference = Self.maxDifference(ticks, reference)

        
        #expect(difference <= Self.rateTolerance)
        // The motion does cover the range, so the comparison means something.
        #expect(reference.contains { $0.xValue > 0.5 } && reference.contains { $0.yValue > 0.2 })
    }

    @Test func sameInputGivesTheSameBits() {
        let samples = Motion.sampled(hz: 333, seconds: 10, Self.wander)
        #expect(Fixtures.run(samples) == Fixtures.run(samples))
    }

    @Test func offsetsStayClampedToZeroAndOne() {
        let samples = Motion.sampled(hz: 200, seconds: 30, Motion.segments([
            (10, Pose(back: 80, right: 60)),  // far right side down, back toward face-up
            (10, Pose(back: -10, right: -60)),  // past upright, left side down
            (10, Pose(back: 80, right: 60)),
        ]))
        let ticks = Fixtures.run(samples)
        #expect(ticks.allSatisfy { (0...65536).contains($0.x.raw) && (0...65536).contains($0.y.raw) })
        #expect(ticks.allSatisfy { (0...384).contains($0.viewportX) && (0...192).contains($0.viewportY) })
        let end = ticks[ticks.count / 3 - 1], middle = ticks[2 * ticks.count / 3 - 1]
        #expect(end.x == .one && end.y == .one && end.viewportX == 384 && end.viewportY == 192)
        #expect(middle.x == .zero && middle.y == .zero)
    }

    @Test func directionsFollowTheRecipe() {
        // Right side down: x grows. Back toward face-up (pitch below the 60° rest): y grows.
        for mode in IntegratorMode.allCases {
            let right = Fixtures.run(Motion.sampled(hz: 100, seconds: 2) { _ in Pose(back: 30, right: 20) }) { $0.mode = mode }
            #expect(right.last!.x > .zero, "\(mode)")
            let back = Fixtures.run(Motion.sampled(hz: 100, seconds: 2) { _ in Pose(back: 50) }) { $0.mode = mode }
            #expect(back.last!.y > .zero, "\(mode)")
            #expect(back.last!.x == .zero, "\(mode)")
        }
    }

    /// A still hand at rest (tremor of ±1.5° and sensor noise) does not drift.
    @Test func deadZoneKeepsAStillHandStill() {
        var rng = SplitMix64(seed: 42)
        let moveThenHold = Motion.segments([(1.5, Pose(back: 60, right: 30)), (60, Pose(back: 30))])
        let samples = Motion.sampled(hz: 200, seconds: 60) { t in
            var p = moveThenHold(t)
            p.back -= 1.5 * sin(2 * .pi * t * 3.1) + Double(rng.int(-50...50)) / 100
            p.right += 1.5 * sin(2 * .pi * t * 4.3) + Double(rng.int(-50...50)) / 100
            return p
        }
        let ticks = Fixtures.run(samples)
        let settled = ticks.first { $0.timeMicros >= 1_000_000 + 2_500_000 }!
        #expect(settled.x > .zero && settled.y > .zero)  // it did move first
        #expect(ticks.last!.x == settled.x && ticks.last!.y == settled.y)
        // Without the dead zone the same hand drifts.
        let noDeadZone = Fixtures.run(samples) { $0.deadZone = 0 }
        let settledWithout = noDeadZone.first { $0.timeMicros >= settled.timeMicros }!
        #expect(noDeadZone.last!.x != settledWithout.x)
    }

    /// Per-tick x steps while the tilt holds, then right after it reverses.
    @Test func gainRampsWhileTheDirectionHoldsAndResetsOnReversal() {
        let samples = Motion.sampled(hz: 1000, seconds: 6, Motion.segments([
            (0.5, Pose(back: 30)), (3, Pose(back: 30, right: 20)), (3, Pose(back: 30, right: -20)),
        ]))
        let ticks = Fixtures.run(samples) { $0.filterMicros = 0 }
        let steps = zip(ticks.dropFirst(), ticks).map { Int($0.x.raw) - Int($1.x.raw) }
        let settings = PhysicsSettings()
        let tilt = sin(20 * Double.pi / 180) - settings.deadZone  // beyond the dead zone, g
        func step(_ gain: Double) -> Double { gain * tilt * 65536 }
        // The first step: the base gain (plus at most one ramp step, for the
        // fraction of a tick since the tilt crossed the dead zone).
        let first = steps.firstIndex { $0 > 0 }!
        #expect(Double(steps[first]) >= step(settings.baseGain) - 1)
        #expect(Double(steps[first]) <= step(settings.baseGain + settings.gainRamp) + 1)
        // It ramps by one ramp step per tick while the tilt holds...
        #expect(abs(Double(steps[first + 10] - steps[first]) - 10 * step(settings.gainRamp)) <= 2)
        // ...up to the cap.
        let capped = steps[first + 60]
        #expect(abs(Double(capped) - step(settings.gainCap)) <= 1)
        // Reversed: back at the base gain, ramping again.
        let reversal = steps.firstIndex { $0 < 0 }!
        #expect(Double(-steps[reversal]) <= step(settings.baseGain + settings.gainRamp) + 1)
        #expect(-steps[reversal + 10] > -steps[reversal])
    }

    @Test func calibrationMakesTheCurrentPoseRest() {
        let pose = Pose(back: 70, right: 10)
        let samples = Motion.sampled(hz: 100, seconds: 5) { _ in pose }
        var engine = Fixtures.engine()
        let reading = SampleConverter().convert(Motion.raw(pose))
        let calibrated = engine.calibrate(to: reading)
        #expect(calibrated)
        let ticks = Fixtures.run(&engine, samples)
        #expect(ticks.allSatisfy { $0.x == .zero && $0.y == .zero })
        #expect(abs(engine.smooth.rest.degrees - 20) < 0.1)
        // Uncalibrated, the same pose scrolls.
        let moving = Fixtures.run(samples)
        #expect(moving.last!.x > .zero && moving.last!.y > .zero)
        // On its side, pitch is undefined: calibration refuses and keeps the pose.
        let side = SampleConverter().convert(Motion.raw(Pose(back: 90, right: 90)))
        let sideways = engine.calibrate(to: side)
        #expect(!sideways)
        #expect(abs(engine.smooth.rest.degrees - 20) < 0.1)
    }

    @Test func calibrationFromAnAverageOrTheCurrentPose() {
        let pose = Pose(back: 55, right: -8)
        let samples = Motion.sampled(hz: 100, seconds: 3) { _ in pose }
        let readings = samples.prefix(20).map { SampleConverter().convert($0.raw) }
        var averaged = Fixtures.engine()
        let ok = averaged.calibrate(averaging: readings)
        #expect(ok)
        #expect(Fixtures.run(&averaged, samples).allSatisfy { $0.x == .zero && $0.y == .zero })

        var current = Fixtures.engine()
        let before = current.calibrateToCurrentPose()
        #expect(!before)  // no sample yet
        _ = Fixtures.run(&current, Array(samples.prefix(50)))
        let captured = current.calibrateToCurrentPose()
        #expect(captured)
        #expect(abs(current.smooth.rest.degrees - 35) < 0.2)
        var none = Fixtures.engine()
        let empty = none.calibrate(averaging: [MotionSample]())
        #expect(!empty)
    }

    @Test func restAngleSettingMovesTheRestPose() {
        let samples = Motion.sampled(hz: 100, seconds: 5) { _ in Pose(back: 45) }
        let at45 = Fixtures.run(samples) { $0.restAngleDegrees = 45 }
        let at60 = Fixtures.run(samples)
        #expect(at45.allSatisfy { $0.y == .zero })
        #expect(at60.last!.y > .zero)  // 45° is back from the default 60° rest
    }

    @Test func ticksFollowTheBoardClock() {
        // Samples every 7 ms from t0 = 1 s: ticks at t0 + k × 30 ms, each after the samples before it.
        let samples = Motion.sampled(hz: 1000.0 / 7, seconds: 1) { _ in Pose(back: 30) }
        let ticks = Fixtures.run(samples)
        let expectedTimes: [UInt64] = (1...ticks.count).map { k in 1_000_000 + UInt64(k) * 30_000 }
        #expect(ticks.map(\.timeMicros) == expectedTimes)
        #expect(ticks.map(\.index) == (1...ticks.count).map(UInt64.init))
        #expect(ticks.last!.timeMicros <= samples.last!.timeMicros)
        #expect(samples.last!.timeMicros - ticks.last!.timeMicros < 30_000)
    }

    @Test func earlierTimestampsCountAsThePreviousOneAndResetStartsOver() {
        let raw = Motion.raw(Pose(back: 30, right: 30))
        var engine = Fixtures.engine()
        var ticks: [Tick] = []
        for (i, t) in [1_000_000, 1_040_000, 1_020_000, 1_050_000, 1_050_000, 1_100_000].enumerated() {
            engine.ingest(TimedSample(timeMicros: UInt64(t), sequence: UInt8(i), raw: raw)) { ticks.append($0) }
        }
        #expect(ticks.map(\.timeMicros) == [1_030_000, 1_060_000, 1_090_000])
        engine.reset()
        var again: [Tick] = []
        engine.ingest(TimedSample(timeMicros: 5, sequence: 0, raw: raw)) { again.append($0) }
        engine.ingest(TimedSample(timeMicros: 30_005, sequence: 1, raw: raw)) { again.append($0) }
        #expect(again.map(\.timeMicros) == [30_005])
        #expect(again[0].index == 1)
    }

    @Test func theAxisMappingTurnsTheTilt() throws {
        // The sensor mounted with x reversed: right side down reads as left side down.
        let samples = Motion.sampled(hz: 100, seconds: 2) { _ in Pose(back: 30, right: 20) }
        var flipped = try TiltEngine(
            geometry: Fixtures.geometry, ribbonArt: Fixtures.ribbon,
            converter: SampleConverter(mapping: AxisMapping(parsing: "-x,y,z")))
        var plain = Fixtures.engine()
        let left = Fixtures.run(&flipped, samples), right = Fixtures.run(&plain, samples)
        #expect(left.last!.x == .zero && right.last!.x > .zero)
    }

    @Test func aLongGapSkipsAheadInsteadOfReplayingEveryTick() {
        var engine = Fixtures.engine()
        let raw = Motion.raw(Pose(back: 30))
        var ticks: [Tick] = []
        engine.ingest(TimedSample(timeMicros: 0, sequence: 0, raw: raw)) { ticks.append($0) }
        engine.ingest(TimedSample(timeMicros: 3_600_000_000, sequence: 1, raw: raw)) { ticks.append($0) }
        #expect(ticks.count == Int(TickClock.maxCatchUpTicks))
        #expect(ticks.last!.timeMicros == 3_600_000_000)
        #expect(ticks.last!.index == 120_000)
    }

    @Test func invalidSettingsAreRejectedWithTheirName() {
        var settings = PhysicsSettings()
        settings.tickMicros = 0
        #expect(throws: PhysicsSettings.InvalidSetting.self) {
            _ = try TiltEngine(settings: settings, geometry: Fixtures.geometry, ribbonArt: Fixtures.ribbon)
        }
        do {
            try settings.validate()
        } catch {
            #expect(error.description.contains("tickMicros"))
        }
    }

    @Test func aRestLeanIsLevel() {
        // Held 60° from face-up leaning 10° right side down: no sideways tilt with
        // restRollDegrees 10, sin 10° of it without.
        let lean = 10.0 * Double.pi / 180, pitch = 60.0 * Double.pi / 180
        let reading = Axes3(x: Fixed(raw: Int32((sin(lean) * 65536).rounded())),
                            y: Fixed(raw: Int32((-cos(lean) * sin(pitch) * 65536).rounded())),
                            z: Fixed(raw: Int32((-cos(lean) * cos(pitch) * 65536).rounded())))
        func xTilt(roll: Double) -> Double {
            var settings = PhysicsSettings()
            settings.restRollDegrees = roll
            var smooth = SmoothIntegrator(settings: settings)
            for t in stride(from: UInt64(0), through: 2_000_000, by: 1000) { smooth.sample(reading, at: t) }
            return Double(smooth.xTilt) / 4_294_967_296
        }
        #expect(abs(xTilt(roll: 10)) < 0.001)
        #expect(abs(xTilt(roll: 0) - sin(lean)) < 0.001)
        #expect(abs(xTilt(roll: -10) - 2 * sin(lean)) < 0.001)
    }
}
