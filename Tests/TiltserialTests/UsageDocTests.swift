import Foundation
import Testing
import TiltExitStatus
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
    /// types): on a change, `swift run settings-codegen` rewrites it.
    @Test func theSettingsTableIsTheOneTheSpecsMake() throws {
        let table = try #require(SettingSpec.currentTable(in: Self.usage), "docs/usage.md lacks the settings table's markers")
        #expect(table == SettingSpec.markdownTable, "docs/usage.md's settings table is stale: run `swift run settings-codegen`")
        #expect(Self.usage.contains("at most \(SettingsResolver.maxConfigBytes) bytes"))
    }

    /// The "Exit codes" table lists exactly `ExitStatus`, both tools' one scheme:
    /// every code with its name and the tools that return it, no stale row.
    @Test func theExitCodeTableIsExactlyTheOneScheme() throws {
        let section = try #require(Self.usage.components(separatedBy: "## Exit codes\n").dropFirst().first)
        let rows = section.split(separator: "\n").prefix { !$0.hasPrefix("#") }
            .filter { $0.hasPrefix("| ") && $0.dropFirst(2).first?.isNumber == true }
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(rows.map { "\($0[0]) \($0[1])" } == ExitStatus.allCases.map { "\($0.rawValue) \($0)" })
        #expect(rows.allSatisfy { ["both", "tiltserial", "tiltsim"].contains($0[2]) })
        #expect(ObjectIdentifier(Failure.self) == ObjectIdentifier(CommandFailure.self), "tiltserial fails with the type both tools share")
    }

    @Test func everySettingHasADistinctOptionAndKey() {
        let flags = SettingSpec.all.map(\.flag) + SettingSpec.all.flatMap(\.aliases).map(\.flag)
        #expect(Set(flags).count == flags.count)
        #expect(Set(SettingSpec.all.map(\.key)).count == SettingSpec.all.count)
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
