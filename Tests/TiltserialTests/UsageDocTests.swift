import Foundation
import Testing
@testable import TiltserialCommand

@Suite struct UsageDocTests {
    static let usage: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/usage.md"), encoding: .utf8)) ?? ""
    }()

    @Test func everySettingIsDocumentedWithItsOptionAndKey() {
        #expect(!Self.usage.isEmpty)
        for spec in SettingSpec.all {
            #expect(Self.usage.contains("`--\(spec.flag)"), "docs/usage.md lacks --\(spec.flag)")
            #expect(Self.usage.contains("`\(spec.key)`"), "docs/usage.md lacks key \(spec.key)")
        }
    }

    /// The settings table is made from `SettingSpec.all` (ranges, defaults, JSON
    /// types): on a change, paste `SettingSpec.markdownTable` into docs/usage.md.
    @Test func theSettingsTableIsTheOneTheSpecsMake() {
        #expect(Self.usage.contains(SettingSpec.markdownTable), "docs/usage.md's settings table differs from:\n\(SettingSpec.markdownTable)")
        #expect(Self.usage.contains("at most \(SettingsResolver.maxConfigBytes) bytes"))
    }

    @Test func everyExitCodeIsDocumented() {
        for code in Failure.Code.allCases {
            #expect(Self.usage.contains("| \(code.rawValue) | \(code) |"), "docs/usage.md lacks exit code \(code)")
        }
    }

    @Test func everySettingHasADistinctOptionAndKey() {
        #expect(Set(SettingSpec.all.map(\.flag)).count == SettingSpec.all.count)
        #expect(Set(SettingSpec.all.map(\.key)).count == SettingSpec.all.count)
        // Every PhysicsSettings Codable key has its entry.
        let physicsKeys = ["mode", "tickMicros", "baseGain", "gainRamp", "gainCap", "deadZone", "yScale", "filterMicros",
                           "restAngleDegrees", "ribbonCenterX", "ribbonRestVisible", "ribbonPixelsPerPoint",
                           "stretchPointsPerPixel", "stretchLimit", "fireThreshold", "rollbackMicros", "grabAlphaThreshold",
                           "wiggleDepth", "wiggleHalfMicros", "wiggleStartsMicros", "swayPixelsPerG", "swayLimit", "drawerHeight"]
        for key in physicsKeys { #expect(SettingSpec.spec(key: key) != nil, "no option for \(key)") }
    }

    @Test func jsonNumbersAreFormattedFromIntegers() {
        #expect(JSONLines.decimal(.init(raw: 0)) == "0.000000")
        #expect(JSONLines.decimal(.init(raw: 65536)) == "1.000000")
        #expect(JSONLines.decimal(.init(raw: 32768)) == "0.500000")
        #expect(JSONLines.decimal(.init(raw: -1)) == "-0.000015")
        #expect(JSONLines.decimal(.init(raw: 1)) == "0.000015")
        #expect(JSONLines.decimal(.init(raw: -6553600)) == "-100.000000")
    }
}
