import Testing
@testable import TiltCore

/// Every one of the 48 mountings: 6 permutations × 8 sign patterns.
let allMappings: [AxisMapping] = {
    let permutations: [[Axis]] = [[.x, .y, .z], [.x, .z, .y], [.y, .x, .z], [.y, .z, .x], [.z, .x, .y], [.z, .y, .x]]
    return permutations.flatMap { p in
        (0..<8).map { signs in
            AxisMapping(
                x: .init(p[0], negated: signs & 1 != 0),
                y: .init(p[1], negated: signs & 2 != 0),
                z: .init(p[2], negated: signs & 4 != 0))!
        }
    }
}()

@Suite struct SampleConverterTests {
    static let extremes: [Int16] = [-32768, 0, 32767]

    @Test(arguments: AccelRange.allCases)
    func accelExtremesAreExactForEveryMapping(range: AccelRange) {
        let expectedPerCount: Int32 = [4, 8, 16, 32][Int(range.rawValue)]  // 65536 / (16384 >> code)
        for mapping in allMappings {
            let converter = SampleConverter(accelRange: range, mapping: mapping)
            for (a, b, c) in Self.extremeTriples {
                let sensor = Axes3(x: a, y: b, z: c)
                let out = converter.convert(RawSample(accel: sensor)).accel
                for axis in Axis.allCases {
                    let source = [mapping.x, mapping.y, mapping.z][axis.rawValue]
                    let counts = Int32(sensor[source.axis]) * (source.negated ? -1 : 1)
                    // iOS convention: the MPU-6050's +1 g face-up is −1 g.
                    #expect(out[axis].raw == -counts * expectedPerCount, "\(mapping) \(axis) \(sensor)")
                }
            }
        }
    }

    @Test(arguments: GyroRange.allCases)
    func gyroExtremesAreExactForEveryMapping(range: GyroRange) {
        let expectedPerCount: Int32 = [500, 1000, 2000, 4000][Int(range.rawValue)]  // 65536 × fullScale / 32768
        for mapping in allMappings {
            let converter = SampleConverter(gyroRange: range, mapping: mapping)
            for (a, b, c) in Self.extremeTriples {
                let sensor = Axes3(x: a, y: b, z: c)
                let out = converter.convert(RawSample(accel: .init(x: 0, y: 0, z: 0), gyro: sensor)).gyro
                for axis in Axis.allCases {
                    let source = [mapping.x, mapping.y, mapping.z][axis.rawValue]
                    let counts = Int32(sensor[source.axis]) * (source.negated ? -1 : 1)
                    #expect(out[axis].raw == counts * expectedPerCount, "\(mapping) \(axis) \(sensor)")
                }
            }
        }
    }

    @Test func fullScaleAtTheEdgesReadsTheNominalRange() {
        let g16 = SampleConverter(accelRange: .g16)
        #expect(g16.convert(RawSample(accel: .init(x: -32768, y: 0, z: 0))).accel.x == Fixed(integer: 16))
        let dps2000 = SampleConverter(gyroRange: .dps2000)
        #expect(dps2000.convert(RawSample(accel: .init(x: 0, y: 0, z: 0), gyro: .init(x: -32768, y: 0, z: 0))).gyro.x == Fixed(integer: -2000))
        #expect(SampleConverter().convert(RawSample(accel: .init(x: 0, y: 0, z: 16384))).accel.z == -Fixed.one)
    }

    @Test func temperatureFollowsTheDatasheetFormula() {
        #expect(SampleConverter.temperature(0).raw == 2_394_030)  // 36.53 °C
        #expect(SampleConverter.temperature(-340).raw == 2_394_030 - 65536)  // 35.53 °C
        #expect(SampleConverter.temperature(3400).raw == 2_394_030 + 10 * 65536)
    }

    /// Property: against a double-precision reference, within one unit of Q15.16.
    @Test func matchesADoublePrecisionReference() {
        var rng = SplitMix64(seed: 0x7115E41A1)
        for _ in 0..<20_000 {
            let accelRange = AccelRange(rawValue: UInt8(rng.next() % 4))!
            let gyroRange = GyroRange(rawValue: UInt8(rng.next() % 4))!
            let mapping = allMappings[Int(rng.next() % UInt64(allMappings.count))]
            let words = (0..<7).map { _ in Int16(truncatingIfNeeded: rng.next()) }
            let raw = RawSample(
                accel: .init(x: words[0], y: words[1], z: words[2]), temperature: words[3],
                gyro: .init(x: words[4], y: words[5], z: words[6]))
            let out = SampleConverter(accelRange: accelRange, gyroRange: gyroRange, mapping: mapping).convert(raw)

            let countsPerG = 16384.0 / Double(1 << Int(accelRange.rawValue))
            let countsPerDps = 32768.0 / Double(250 << Int(gyroRange.rawValue))
            for axis in Axis.allCases {
                let source = [mapping.x, mapping.y, mapping.z][axis.rawValue]
                let sign = source.negated ? -1.0 : 1.0
                let g = -sign * Double(raw.accel[source.axis]) / countsPerG
                let dps = sign * Double(raw.gyro[source.axis]) / countsPerDps
                #expect(abs(Double(out.accel[axis].raw) - g * 65536) <= 1)
                #expect(abs(Double(out.gyro[axis].raw) - dps * 65536) <= 1)
            }
            let celsius = Double(raw.temperature) / 340 + 36.53
            #expect(abs(Double(out.temperature.raw) - celsius * 65536) <= 1)
        }
    }

    static let extremeTriples: [(Int16, Int16, Int16)] = extremes.flatMap { a in
        extremes.flatMap { b in extremes.map { c in (a, b, c) } }
    }
}
