#if canImport(Glibc)
import Glibc
#endif
import Testing
import TiltCore
@testable import TiltPipeline

/// `tiltserial calibrate`'s logic on generated readings: every mounting of the
/// sensor, several rest poses and sample rates, and the wrong moves.
@Suite struct CalibrationTests {
    /// A pose: pitch from face-up (θ) and lean with the right side down (φ), degrees.
    /// Not TiltMotion's `Pose` on purpose: this gravity model is the independent
    /// oracle for `CalibrationSolver`, written in the solver's own convention
    /// (docs/architecture.md, "One name per concept").
    struct Pose {
        var pitch: Double
        var roll: Double
    }

    /// Gravity on the board's axes, iOS convention: (sin φ, −cos φ sin θ, −cos φ cos θ).
    static func gravity(_ p: Pose) -> Axes3<Double> {
        let t = p.pitch * .pi / 180, r = p.roll * .pi / 180
        return Axes3(x: sin(r), y: -cos(r) * sin(t), z: -cos(r) * cos(t))
    }

    /// What a sensor mounted as `m` (board axis i = ± sensor axis) reads.
    static func sensor(_ board: Axes3<Double>, mounted m: AxisMapping) -> Axes3<Double> {
        var s = Axes3(x: 0.0, y: 0.0, z: 0.0)
        for (source, value) in [(m.x, board.x), (m.y, board.y), (m.z, board.z)] {
            s[source.axis] = source.negated ? -value : value
        }
        return s
    }

    /// Poses over time, linearly between keys (seconds, pose), as a motion script does.
    static func pose(at t: Double, _ keys: [(Double, Pose)]) -> Pose {
        guard t > keys[0].0 else { return keys[0].1 }
        guard let next = keys.firstIndex(where: { $0.0 > t }) else { return keys.last!.1 }
        let (ta, a) = keys[next - 1], (tb, b) = keys[next]
        let f = (t - ta) / (tb - ta)
        return Pose(pitch: a.pitch + (b.pitch - a.pitch) * f, roll: a.roll + (b.roll - a.roll) * f)
    }

    /// The three steps from `rest`, tilting `right`° and then `back`° (negative: the other way), each held 3 s.
    static func steps(_ rest: Pose, right: Double = 25, back: Double = 25) -> [(Double, Pose)] {
        let tilted = Pose(pitch: rest.pitch, roll: rest.roll + right)
        let leaned = Pose(pitch: rest.pitch - back, roll: rest.roll)
        return [(0, rest), (4, rest), (4.5, tilted), (7.5, tilted), (8, rest), (8.5, rest), (9, leaned), (12, leaned), (12.5, rest)]
    }

    struct Outcome {
        var progress: [Calibration.Progress] = []
        var result: CalibrationSolver.Result? {
            progress.lazy.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first
        }
        var failure: Calibration.Failure? {
            progress.lazy.compactMap { if case .failed(let f) = $0 { f } else { nil } }.first
        }
        var capturedAt: [Calibration.Step: UInt64] = [:]
    }

    /// Feeds `Calibration` readings at `rateHz` for `seconds`, with ±`noise` g of
    /// deterministic noise per axis, stopping when it finishes or fails.
    static func run(_ keys: [(Double, Pose)], mounted m: AxisMapping = .identity, rateHz: Double = 1000, seconds: Double = 60,
                    noise: Double = 0.008, seed: UInt64 = 1, startMicros: UInt64 = 5_000_000,
                    motion: ((Double) -> Pose)? = nil) -> Outcome {
        var calibration = Calibration()
        var outcome = Outcome()
        var random = SplitMix64(seed: seed)
        var now: UInt64 = 0
        let handle = { (p: Calibration.Progress) in
            outcome.progress.append(p)
            if case .captured(let step, _) = p { outcome.capturedAt[step] = now }
        }
        calibration.start(handle)
        let period = 1 / rateHz
        var t = 0.0
        while t <= seconds && calibration.step != nil {
            let g = sensor(gravity(motion?(t) ?? pose(at: t, keys)), mounted: m)
            func fixed(_ v: Double) -> Fixed {
                let n = (Double(random.next() >> 11) * 0x1p-53 * 2 - 1) * noise
                return Fixed(raw: Int32(((v + n) * 65536).rounded()))
            }
            now = startMicros + UInt64((t * 1e6).rounded())
            calibration.take(Axes3(x: fixed(g.x), y: fixed(g.y), z: fixed(g.z)), atMicros: now, handle)
            t += period
        }
        return outcome
    }

    /// The 24 ways to mount a sensor: the axis mappings that are rotations.
    static let mountings: [AxisMapping] = {
        var all: [AxisMapping] = []
        let orders: [[Axis]] = [[.x, .y, .z], [.x, .z, .y], [.y, .x, .z], [.y, .z, .x], [.z, .x, .y], [.z, .y, .x]]
        for order in orders {
            for signs in 0..<8 {
                let m = AxisMapping(x: .init(order[0], negated: signs & 1 != 0), y: .init(order[1], negated: signs & 2 != 0),
                                    z: .init(order[2], negated: signs & 4 != 0))!
                if CalibrationSolver.determinant(m) == 1 { all.append(m) }
            }
        }
        return all
    }()

    @Test func thereAreTwentyFourMountings() {
        #expect(Self.mountings.count == 24)
        #expect(Self.mountings.contains(.identity))
        #expect(Self.mountings.contains(try! AxisMapping(parsing: "x,-y,-z")))  // upside down
        #expect(!Self.mountings.contains(try! AxisMapping(parsing: "-x,y,z")))  // a mirror
    }

    @Test(arguments: [Pose(pitch: 60, roll: 0), Pose(pitch: 0, roll: 0), Pose(pitch: 35, roll: -6), Pose(pitch: 70, roll: 8),
                      Pose(pitch: -10, roll: 3)])
    func everyMountingAndItsRestPoseAreFound(rest: Pose) throws {
        for (i, m) in Self.mountings.enumerated() {
            let outcome = Self.run(Self.steps(rest), mounted: m, seed: UInt64(i))
            let result = try #require(outcome.result, "mounting \(m), rest \(rest): \(outcome.progress)")
            #expect(result.axes == m, "rest \(rest)")
            #expect(abs(result.restAngleDegrees - rest.pitch) <= 0.15, "mounting \(m): \(result.restAngleDegrees)")
            #expect(abs(result.restRollDegrees - rest.roll) <= 0.15, "mounting \(m): \(result.restRollDegrees)")
            #expect(abs(result.backDegrees - 25) < 0.5)
        }
    }

    @Test(arguments: [50.0, 200, 1000, 4000])
    func anySampleRateWorks(rateHz: Double) throws {
        let outcome = Self.run(Self.steps(Pose(pitch: 60, roll: 0)), mounted: try AxisMapping(parsing: "-y,x,z"), rateHz: rateHz)
        let result = try #require(outcome.result, "\(outcome.progress)")
        #expect(result.axes.description == "-y,x,z")
        #expect(abs(result.restAngleDegrees - 60) <= 0.15)
    }

    @Test func eachStepWaitsForASecondOfStillnessAfterTheLeadIn() throws {
        let outcome = Self.run(Self.steps(Pose(pitch: 60, roll: 0)), startMicros: 0)
        #expect(outcome.result != nil)
        // Rest: one second skipped, then one second still. Right: held from 4.5 s;
        // back: from 9 s. Each is taken at a bucket boundary once a second of
        // readings is still (the last 0.1 s of a slow tilt's end may count).
        let rest = try #require(outcome.capturedAt[.rest]), right = try #require(outcome.capturedAt[.right])
        let back = try #require(outcome.capturedAt[.back])
        #expect(rest >= 2_000_000 && rest <= 2_100_000, "\(rest)")
        #expect(right >= 5_400_000 && right <= 5_700_000, "\(right)")
        #expect(back >= 9_900_000 && back <= 10_200_000, "\(back)")
        #expect(outcome.progress.first == .started(.rest))
        let started = outcome.progress.compactMap { if case .started(let s) = $0 { s } else { nil } }
        #expect(started == [.rest, .right, .back])
    }

    @Test func aBoardThatNeverKeepsStillFailsAfterThirtySeconds() throws {
        // A hand shaking ±10° three times a second.
        let outcome = Self.run([], motion: { t in Pose(pitch: 60 + 10 * sin(2 * .pi * 3 * t), roll: 0) })
        guard case .neverStill(.rest, let after) = try #require(outcome.failure) else {
            Issue.record("\(outcome.progress)")
            return
        }
        #expect(after > 30_000_000 && after < 30_100_000)
    }

    @Test func aTremorWithinTheLimitStillCounts() throws {
        // ±0.5° at 8 Hz on top of the sensor noise: about 0.006 g.
        let outcome = Self.run([], motion: { t in
            let base = Self.pose(at: t, Self.steps(Pose(pitch: 60, roll: 0)))
            return Pose(pitch: base.pitch + 0.5 * sin(2 * .pi * 8 * t), roll: base.roll + 0.5 * cos(2 * .pi * 8 * t))
        })
        #expect(outcome.result != nil, "\(outcome.progress)")
    }

    @Test func aBoardThatNeverTiltsFailsInStepTwo() throws {
        let outcome = Self.run([(0, Pose(pitch: 60, roll: 0))])
        #expect(outcome.capturedAt[.rest] != nil)
        guard case .didNotMove(.right, let after) = try #require(outcome.failure) else {
            Issue.record("\(outcome.progress)")
            return
        }
        #expect(after > 30_000_000)
    }

    @Test func aTiltTooSmallIsNotTaken() throws {
        // 10° sideways is under the 0.25 g a new pose needs.
        let rest = Pose(pitch: 60, roll: 0), small = Pose(pitch: 60, roll: 10)
        let outcome = Self.run([(0, rest), (4, rest), (4.5, small), (60, small)])
        guard case .didNotMove(.right, _) = try #require(outcome.failure, "\(outcome.progress)") else {
            Issue.record("\(outcome.progress)")
            return
        }
    }

    @Test(arguments: Array(0..<24))
    func wrongMovesAreNamed(mounting: Int) throws {
        let m = Self.mountings[mounting]
        let rest = Pose(pitch: 55, roll: 0)
        // Left instead of right: the tilt back then turns the wrong way.
        let left = Self.run(Self.steps(rest, right: -25), mounted: m)
        guard case .poses(.tiltedForward)? = left.failure else {
            Issue.record("left, \(m): \(left.progress)")
            return
        }
        // Forward instead of back.
        let forward = Self.run(Self.steps(rest, back: -25), mounted: m)
        guard case .poses(.tiltedForward(let degrees))? = forward.failure else {
            Issue.record("forward, \(m): \(forward.progress)")
            return
        }
        #expect(abs(degrees - 25) < 0.5)
        // Back instead of right: not sideways, refused at step 2 already.
        let backFirst = Self.run([(0, rest), (4, rest), (4.5, Pose(pitch: 30, roll: 0)), (20, Pose(pitch: 30, roll: 0))], mounted: m)
        #expect(backFirst.failure == .poses(.notSideways), "\(m): \(backFirst.progress)")
        // A pose refused is never "got it" first (a tester's "got it", then "not to the side").
        #expect(backFirst.capturedAt[.rest] != nil && backFirst.capturedAt[.right] == nil && backFirst.capturedAt[.back] == nil)
        #expect(left.capturedAt[.back] == nil && forward.capturedAt[.back] == nil)
        // Right, then left instead of back.
        let sideways = Self.run([(0, rest), (4, rest), (4.5, Pose(pitch: 55, roll: 25)), (7.5, Pose(pitch: 55, roll: 25)),
                                 (8, Pose(pitch: 55, roll: -25)), (20, Pose(pitch: 55, roll: -25))], mounted: m)
        #expect(sideways.failure == .poses(.notBack), "\(m): \(sideways.progress)")
    }

    @Test func aBoardResetMidwayKeepsThePosesTaken() throws {
        // The board's clock starts again at 6 s (a reset): the step in progress restarts.
        var calibration = Calibration()
        var progress: [Calibration.Progress] = []
        let keys = Self.steps(Pose(pitch: 60, roll: 0))
        for ms in stride(from: 0, through: 14_000, by: 1) {
            let t = Double(ms) / 1000
            let g = Self.gravity(Self.pose(at: t, keys))
            let micros = ms < 6_000 ? UInt64(ms) * 1000 + 50_000_000 : UInt64(ms - 6_000) * 1000
            let fixed = { (v: Double) in Fixed(raw: Int32((v * 65536).rounded())) }
            calibration.take(Axes3(x: fixed(g.x), y: fixed(g.y), z: fixed(g.z)), atMicros: micros) { progress.append($0) }
        }
        let finished = progress.contains { if case .finished(let r) = $0 { r.axes == .identity } else { false } }
        #expect(finished, "\(progress)")
    }

    @Test func nothingHappensAfterTheEnd() {
        var outcome = Self.run(Self.steps(Pose(pitch: 60, roll: 0)))
        #expect(outcome.result != nil)
        let calibration = Calibration()
        calibration.start { outcome.progress.append($0) }
        #expect(calibration.step == .rest)
    }

    // MARK: The parts

    @Test func atan2WithoutLibmMatchesLibm() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<10_000 {
            let y = Double(random.next() >> 11) * 0x1p-53 * 4 - 2, x = Double(random.next() >> 11) * 0x1p-53 * 4 - 2
            #expect(abs(CalibrationSolver.atan2Degrees(y, x) - atan2(y, x) * 180 / .pi) < 1e-9, "\(y), \(x)")
        }
        for (y, x) in [(0.0, 1.0), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, -1), (1e-300, -1), (-1e-300, -1)] {
            #expect(abs(CalibrationSolver.atan2Degrees(y, x) - atan2(y, x) * 180 / .pi) < 1e-9, "\(y), \(x)")
        }
    }

    @Test func stillnessIsTheVarianceOverWholeBuckets() throws {
        var window = StillnessWindow(windowMicros: 1_000_000, bucketMicros: 100_000)
        var readings: [StillnessWindow.Reading] = []
        // Alternating ±0.1 g around 1 g on z: deviation exactly 0.1 g.
        for ms in 0..<1_200 {
            let z = ms % 2 == 0 ? 1.1 : 0.9
            if let r = window.add(Axes3(x: .zero, y: .zero, z: Fixed(raw: Int32((z * 65536).rounded()))), atMicros: UInt64(ms) * 1000) {
                readings.append(r)
            }
        }
        // Windows close at 1.0 s and 1.1 s (the first bucket boundary with ten whole buckets behind it).
        #expect(readings.map(\.endMicros) == [1_000_000, 1_100_000])
        let r = try #require(readings.first)
        #expect(r.count == 1000)
        #expect(abs(r.mean.z - 1) < 1e-4 && abs(r.deviation.z - 0.1) < 1e-4 && r.deviation.x == 0)
    }

    @Test func aGapInTheStreamEmptiesTheWindow() {
        var window = StillnessWindow(windowMicros: 1_000_000, bucketMicros: 100_000)
        var ends: [UInt64] = []
        let g = Axes3(x: Fixed.zero, y: Fixed.zero, z: Fixed(raw: 65536))
        for ms in 0..<3_000 where !(1_500..<1_700).contains(ms) {  // 0.2 s without readings
            if let r = window.add(g, atMicros: UInt64(ms) * 1000) { ends.append(r.endMicros) }
        }
        // Whole windows until the gap, none again until a second after it.
        #expect(ends.contains(1_500_000) && !ends.contains(1_800_000) && ends.contains(2_700_000))
        #expect(ends.filter { $0 > 1_500_000 && $0 < 2_700_000 }.isEmpty)
    }
}
