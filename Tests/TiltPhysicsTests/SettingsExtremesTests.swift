import Testing
import TiltCore
import TiltPhysics

/// Every value that passes `PhysicsSettings.validate()` must run without a
/// trap: each setting at the ends of its range, fed extreme tilts (full-scale
/// counts on every axis, at ±2 g and ±16 g), long gaps and calibration to an
/// extreme pose.
@Suite struct SettingsExtremesTests {
    typealias L = PhysicsSettings.Limits

    /// One variant per setting and end of its range (the others at their
    /// defaults; a partner a cross-check ties it to moved along), plus all at
    /// their minimum and all at their maximum.
    static let variants: [(String, PhysicsSettings)] = {
        typealias Edit = (inout PhysicsSettings) -> Void
        var ends: [(name: String, min: Edit, max: Edit)] = []
        func ints(_ path: WritableKeyPath<PhysicsSettings, Int>, _ name: String, _ range: ClosedRange<Int>) {
            ends.append((name, { $0[keyPath: path] = range.lowerBound }, { $0[keyPath: path] = range.upperBound }))
        }
        func doubles(_ path: WritableKeyPath<PhysicsSettings, Double>, _ name: String, _ range: ClosedRange<Double>) {
            ends.append((name, { $0[keyPath: path] = range.lowerBound }, { $0[keyPath: path] = range.upperBound }))
        }
        ints(\.tickMicros, "tickMicros", L.tickMicros)
        doubles(\.baseGain, "baseGain", L.gain)
        doubles(\.gainRamp, "gainRamp", L.gain)
        doubles(\.gainCap, "gainCap", L.gain)
        doubles(\.deadZone, "deadZone", L.deadZone)
        doubles(\.yScale, "yScale", L.yScale)
        ints(\.filterMicros, "filterMicros", L.filterMicros)
        doubles(\.restAngleDegrees, "restAngleDegrees", L.restAngleDegrees)
        ends.append(("ribbonCenterX", { $0.ribbonCenterX = L.ribbonCenterX.lowerBound }, { $0.ribbonCenterX = L.ribbonCenterX.upperBound }))
        ints(\.ribbonRestVisible, "ribbonRestVisible", L.ribbonRestVisible)
        doubles(\.ribbonPixelsPerPoint, "ribbonPixelsPerPoint", L.ribbonPixelsPerPoint)
        doubles(\.stretchPointsPerPixel, "stretchPointsPerPixel", L.stretchPointsPerPixel)
        doubles(\.stretchLimit, "stretchLimit", L.stretch)
        doubles(\.fireThreshold, "fireThreshold", L.fireThreshold)
        ints(\.rollbackMicros, "rollbackMicros", L.rollbackMicros)
        ints(\.grabAlphaThreshold, "grabAlphaThreshold", L.grabAlphaThreshold)
        doubles(\.wiggleDepth, "wiggleDepth", L.wiggleDepth)
        ints(\.wiggleHalfMicros, "wiggleHalfMicros", L.wiggleHalfMicros)
        ends.append(("wiggleStartsMicros",
                     { $0.wiggleStartsMicros = Array(repeating: L.wiggleStartMicros.lowerBound, count: L.maxWiggles) },
                     { $0.wiggleStartsMicros = Array(repeating: L.wiggleStartMicros.upperBound, count: L.maxWiggles) }))
        doubles(\.swayPixelsPerG, "swayPixelsPerG", L.swayPixelsPerG)
        ints(\.swayLimit, "swayLimit", L.swayLimit)
        ints(\.drawerHeight, "drawerHeight", L.drawerHeight)

        /// Moves a partner a cross-check ties the setting to, so the variant is valid.
        func settle(_ s: inout PhysicsSettings) {
            s.gainCap = max(s.gainCap, s.baseGain)
            s.stretchLimit = max(s.stretchLimit, s.fireThreshold)
        }
        func make(_ edits: [Edit]) -> PhysicsSettings {
            var s = PhysicsSettings()
            for edit in edits { edit(&s) }
            settle(&s)
            return s
        }
        var variants: [(String, PhysicsSettings)] = []
        for end in ends {
            variants.append(("\(end.name) at its minimum", make([end.min])))
            variants.append(("\(end.name) at its maximum", make([end.max])))
        }
        variants.append(("no wiggles", make([{ $0.wiggleStartsMicros = [] }])))
        variants.append(("all at their minimum", make(ends.map(\.min))))
        variants.append(("all at their maximum", make(ends.map(\.max))))
        return variants
    }()

    /// Full-scale counts, in turn on every axis and sign.
    static let extremeSamples: [RawSample] = {
        let values: [Int16] = [.max, .min, 0, -1, 1, .max / 2]
        var out: [RawSample] = []
        for x in values { for y in values { for z in values {
            out.append(RawSample(accel: Axes3(x: x, y: y, z: z)))
        } } }
        return out
    }()

    /// Gaps between samples, µs: bursts, ordinary ticks, and a sample arriving
    /// "before" the previous one.
    static let gaps: [Int64] = [0, 1, 997, 30_000, 250, 3, -5_000, 120_000]
    /// Rarer gaps (each makes up to `TickClock.maxCatchUpTicks` ticks), by sample index.
    static let stalls: [Int: Int64] = [100: 1_000_000, 200: 4_000_000_000]

    static func drive(_ settings: PhysicsSettings, range: AccelRange) throws -> Int {
        var engine = try TiltEngine(
            settings: settings, geometry: Fixtures.geometry, ribbonArt: Fixtures.ribbon,
            converter: SampleConverter(accelRange: range), drawerItems: 8)
        var t: UInt64 = 1_000_000
        var ticks = 0
        for i in 0..<300 {
            let gap = stalls[i] ?? gaps[i % gaps.count]
            t = gap < 0 ? t - UInt64(-gap) : t + UInt64(gap)
            let raw = extremeSamples[(i * 37) % extremeSamples.count]
            engine.ingest(TimedSample(timeMicros: t, sequence: UInt8(truncatingIfNeeded: i), raw: raw)) { _ in ticks += 1 }
            if i % 50 == 25 { engine.calibrateToCurrentPose() }
            if i % 70 == 40 { engine.calibrate(to: engine.converter.convert(raw)) }
        }
        return ticks
    }

    @Test func everySettingAtTheEndsOfItsRangeRunsWithoutTrapping() throws {
        #expect(Self.variants.count > 40)
        for (name, base) in Self.variants {
            for mode in IntegratorMode.allCases {
                var settings = base
                settings.mode = mode
                #expect(throws: Never.self, "\(name) should pass validation") { try settings.validate() }
                for range in [AccelRange.g2, .g16] {
                    let ticks = try Self.drive(settings, range: range)
                    #expect(ticks > 0, "\(name), \(mode), \(range)")
                }
            }
        }
    }

    @Test func aRibbonCentreTheWireCannotCarryIsRefused() {
        for x in [Int.min, Int.min + 1, -1, 65_536, Int.max] {
            var s = PhysicsSettings()
            s.ribbonCenterX = x
            #expect(throws: PhysicsSettings.InvalidSetting.self, "ribbonCenterX \(x)") { try s.validate() }
        }
    }
}
