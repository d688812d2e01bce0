import Foundation
import Testing
import TiltPhysics
@testable import TiltserialSettings

/// What the settings table makes is checked in: the options (the command
/// module's SettingsOptions.swift) and docs/usage.md's table. Each test fails
/// while its file is stale; `swift run settings-codegen` rewrites both.
@Suite struct GeneratedFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theOptionsAreTheOnesTheTableMakes() throws {
        let file = try Self.text("Sources/Commands/TiltserialCommand/SettingsOptions.swift")
        #expect(file == SettingSpec.optionsSource, "SettingsOptions.swift is stale: run `swift run settings-codegen`")
    }

    @Test func everySettingIsDeclaredOnceWithItsHelpAndPlaceholder() {
        let source = SettingSpec.optionsSource
        for spec in SettingSpec.all {
            let declaration = "@Option(name: .customLong(\"\(spec.flag)\"), help: ArgumentHelp(\(SettingSpec.literal(spec.optionHelp)), "
                + "valueName: \"\(spec.placeholder)\")\(SettingSpec.completion(spec)))"
            // Once for run/replay/demo, once more for calibrate's link options.
            #expect(source.components(separatedBy: declaration).count - 1 == (spec.group == .link ? 2 : 1), "\(spec.flag)")
        }
        #expect(SettingSpec.property("ribbon-center-x") == "ribbonCenterX")
        #expect(SettingSpec.literal(#"a "b" \c"#) == #""a \"b\" \\c""#)
    }

    /// Every property of the physics and the host settings has its row (the key
    /// is the property's name), and every row reads the default from them.
    @Test func everyPropertyHasARow() {
        for child in Mirror(reflecting: PhysicsSettings()).children {
            #expect(SettingSpec.spec(key: child.label!) != nil, "PhysicsSettings.\(child.label!) has no row in SettingTable.swift")
        }
        for child in Mirror(reflecting: HostSettings()).children where child.label != "physics" {
            #expect(SettingSpec.spec(key: child.label!) != nil, "HostSettings.\(child.label!) has no row in SettingTable.swift")
        }
        let physicsRows = SettingSpec.all.count - Mirror(reflecting: HostSettings()).children.count + 1
        #expect(physicsRows == Mirror(reflecting: PhysicsSettings()).children.count)
    }
}
