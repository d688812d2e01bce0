import CRecipeOracle
import Testing
import TiltCore
import TiltPhysics

/// Recipe mode against the C transliteration of the recipe, bit for bit.
@Suite struct RecipeOracleTests {
    /// A generated motion in raw counts (sensor frame, ±2 g) with board times.
    struct Case: CustomTestStringConvertible {
        let name: String
        let samples: [TimedSample]
        var testDescription: String { name }
    }

    static func timestamps(_ rng: inout SplitMix64, count: Int, period: Int, jitter: Int) -> [UInt64] {
        var t: UInt64 = UInt64(rng.int(0...5_000_000))
        return (0..<count).map { _ in
            t += UInt64(max(1, period + (jitter > 0 ? rng.int(-jitter...jitter) : 0)))
            return t
        }
    }

    static func make(_ name: String, seed: UInt64, count: Int, period: Int, jitter: Int,
                     _ next: (inout SplitMix64, Int) -> (Int, Int, Int)) -> Case {
        var rng = SplitMix64(seed: seed)
        let times = timestamps(&rng, count: count, period: period, jitter: jitter)
        let samples = times.enumerated().map { i, t in
            let (x, y, z) = next(&rng, i)
            return TimedSample(
                timeMicros: t, sequence: UInt8(truncatingIfNeeded: i),
                raw: RawSample(accel: Axes3(x: Int16(clamping: x), y: Int16(clamping: y), z: Int16(clamping: z))))
        }
        return Case(name: name, samples: samples)
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for (period, jitter) in [(1_000, 0), (5_000, 1_200), (10_000, 0), (20_000, 6_000), (33_333, 9_000)] {
            var walk = (0, 0, 8192)  // the recipe's rest: iOS az = -0.5
            cases.append(make("random walk, \(period) µs", seed: UInt64(period), count: 3_000, period: period, jitter: jitter) { rng, _ in
                walk.0 = max(-20_000, min(20_000, walk.0 + rng.int(-300...300)))
                walk.1 = max(-20_000, min(20_000, walk.1 + rng.int(-300...300)))
                walk.2 = max(-20_000, min(20_000, walk.2 + rng.int(-300...300)))
                return walk
            })
            var level = (0, 0, 8192)
            cases.append(make("steps, \(period) µs", seed: UInt64(period) &+ 7, count: 3_000, period: period, jitter: jitter) { rng, i in
                if i % 97 == 0 { level = (rng.int(-16_384...16_384), rng.int(-16_384...16_384), rng.int(-8_000...24_000)) }
                return level
            })
            cases.append(make("sign flips around zero, \(period) µs", seed: UInt64(period) &+ 13, count: 3_000, period: period, jitter: jitter) { rng, _ in
                (rng.int(-3...3), rng.int(-3...3), 8192 + rng.int(-3...3))
            })
        }
        return cases
    }()

    /// The oracle's ticks for `samples`: iOS acceleration computed the C way,
    /// `-(raw / 16384)` in float.
    static func oracle(_ samples: [TimedSample]) -> [recipe_oracle_tick] {
        let input = samples.map { s in
            recipe_oracle_sample(
                time_us: s.timeMicros,
                ax: -(Float(s.raw.accel.x) / 16384), ay: -(Float(s.raw.accel.y) / 16384),
                az: -(Float(s.raw.accel.z) / 16384))
        }
        var ticks = [recipe_oracle_tick](repeating: recipe_oracle_tick(), count: 20_000)
        let ran = input.withUnsafeBufferPointer { samplesBuffer in
            ticks.withUnsafeMutableBufferPointer { ticksBuffer in
                recipe_oracle_run(samplesBuffer.baseAddress, Int32(samplesBuffer.count), 30_000,
                                  ticksBuffer.baseAddress, Int32(ticksBuffer.count))
            }
        }
        precondition(ran <= ticks.count)
        return Array(ticks.prefix(Int(ran)))
    }

    @Test func oracleEvaluatesFloatInFloat() {
        #expect(recipe_oracle_float_eval_method() == 1)
    }

    @Test(arguments: cases) func recipeModeMatchesTheOracleBitForBit(_ c: Case) {
        let expected = Self.oracle(c.samples)
        let ticks = Fixtures.run(c.samples) { $0.mode = .recipe }
        #expect(ticks.count == expected.count)
        #expect(expected.count > 50)
        var mismatches = 0
        for (tick, want) in zip(ticks, expected) {
            let x = tick.recipeOffsets?.x.bitPattern, y = tick.recipeOffsets?.y.bitPattern
            if tick.timeMicros != want.time_us || x != want.xoff_bits || y != want.yoff_bits
                || tick.viewportX != Int((Double(want.xoff) * 384).rounded())
                || tick.viewportY != Int((Double(want.yoff) * 192).rounded()) {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("tick \(tick.index) at \(tick.timeMicros): engine (\(x ?? 0), \(y ?? 0)) oracle (\(want.xoff_bits), \(want.yoff_bits)) at \(want.time_us)")
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// The oracle's `abs` is C's integer abs: a gain of 1.7 truncates to 1.
    @Test func oracleUsesTheIntegerAbs() {
        var state = recipe_oracle_state()
        state.xaccel = 1.7
        state.xvelocity = 0
        recipe_oracle_sample_apply(&state, 0.5, 0, -0.5)  // xx = -0.5: SIGN matches -SIGN(0)
        #expect(state.xaccel == Float(1) + 0.005)
        state.xaccel = -0.7
        state.xvelocity = 0
        recipe_oracle_sample_apply(&state, 0.5, 0, -0.5)
        #expect(state.xaccel == -0.005)
    }

    /// The comparison can fail: the same recipe computed in double drifts away
    /// from the float oracle in its low bits, so the bit comparison would see it.
    @Test func doublePrecisionRecipeIsDistinguishable() {
        let c = Self.cases[0]
        let expected = Self.oracle(c.samples)
        var xoff = 0.0, yoff = 0.0, xg = 0.0, yg = 0.0, xv = 0.0, yv = 0.0
        var differing = 0
        var next = 0
        let t0 = c.samples[0].timeMicros
        for (k, want) in expected.enumerated() {
            let tickTime = t0 + UInt64(k + 1) * 30_000
            while next < c.samples.count && c.samples[next].timeMicros <= tickTime {
                let s = c.samples[next].raw.accel
                let xx = Double(s.x) / 16384, yy = (-Double(s.z) / 16384 + 0.5) * 2
                func sign(_ v: Double) -> Double { v < 0 ? -1 : 1 }
                if -sign(xv) == sign(xx) { xg = (Double(Int(xg)) + 0.005) * sign(xg) }
                if -sign(yv) == sign(yy) { yg = (Double(Int(yg)) + 0.005) * sign(yg) }
                xv = -xg * xx
                yv = -yg * yy
                next += 1
            }
            xoff = max(0, min(1, xoff + xv))
            yoff = max(0, min(1, yoff + yv))
            if Float(xoff).bitPattern != want.xoff_bits || Float(yoff).bitPattern != want.yoff_bits { differing += 1 }
        }
        #expect(differing > 0)
    }

    /// The recipe's literal arithmetic: the gain never grows past 0.005, and an
    /// axis only wakes once a sample's sign matches (y: once az < −0.5).
    @Test func gainIsStuckAtTheStepAndYWakesBelowMinusHalf() {
        var r = RecipeIntegrator()
        for _ in 0..<100 { r.sample(ax: 0, az: -0.4) }  // yy > 0: y never wakes
        #expect(r.yGain == 0)
        #expect(r.yVelocity == 0)
        for _ in 0..<100 { r.sample(ax: 0.5, az: -0.7) }
        #expect(r.yGain == 0.005)
        #expect(r.xGain == 0.005)
        let yy: Float = (-0.7 + 0.5) * 2, step: Float = 0.005
        #expect(r.yVelocity == -step * yy)
        #expect(r.xVelocity == step * 0.5)
    }
}
