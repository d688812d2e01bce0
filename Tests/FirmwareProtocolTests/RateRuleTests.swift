import FirmwareCore
import Testing

/// The firmware's sample-rate rule (src/core/tilt_rate.c), which the board and
/// the native model both run, against an oracle in exact rational arithmetic.
@Suite struct RateRuleTests {
    /// The divider d (0…249) whose 1000 / (1 + d) Hz is nearest `rate` clamped
    /// to 4…1000; a tie goes to the higher rate (the smaller divider).
    static func oracleDivider(_ requested: Int) -> Int {
        let rate = max(4, min(1000, requested))
        // |1000/(1+d) - r| compared as |1000 - r(1+d)| / (1+d), cross-multiplied.
        return (0...249).min { a, b in
            let ea = abs(1000 - rate * (1 + a)) * (1 + b), eb = abs(1000 - rate * (1 + b)) * (1 + a)
            return ea != eb ? ea < eb : a < b
        }!
    }

    @Test func everyRateTheHostCanAskForGetsTheNearestDividerAndItsRoundedRate() {
        var differences = 0
        for rate in 0...1100 {
            let divider = Int(tilt_rate_divider(UInt16(rate)))
            if divider != Self.oracleDivider(rate) { differences += 1 }
            let announced = Int(tilt_rate_hz(UInt8(divider)))
            // 1000 / (1 + d) rounded half up.
            #expect(announced == (2000 / (1 + divider) + 1) / 2)
            #expect(abs(Double(announced) - 1000 / Double(1 + divider)) <= 0.5)
            #expect(tilt_rate_period_us(UInt8(divider)) == UInt32(1000 * (1 + divider)))
        }
        #expect(differences == 0)
        #expect(tilt_rate_hz(tilt_rate_divider(167)) == 167)   // 1000 / 6 = 166.7: announced as 167
        #expect(tilt_rate_divider(5000) == 0 && tilt_rate_divider(1) == 249)
    }
}
