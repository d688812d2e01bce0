import ArgumentParser
import Testing
@testable import TiltserialCommand
@testable import TiltsimCommand

/// Every command's `--help` fits an 80-column terminal: ArgumentParser wraps
/// the text but prints a synopsis with every option spelled out on one line
/// (`tiltserial setup` ran to 207 columns), so such commands give their own.
@Suite struct HelpWidthTests {
    static func commands(_ root: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [root] + root.configuration.subcommands.flatMap { commands($0) }
    }

    @Test func everyTiltserialHelpLineFitsEightyColumns() {
        for command in Self.commands(Tiltserial.self) {
            let help = Tiltserial.helpMessage(for: command, columns: 80)
            for line in help.split(separator: "\n") {
                #expect(line.count <= 80, "tiltserial \(command._commandName): \(line.count) columns: \(line)")
            }
        }
    }

    @Test func everyTiltsimHelpLineFitsEightyColumns() {
        for command in Self.commands(Tiltsim.self) {
            let help = Tiltsim.helpMessage(for: command, columns: 80)
            for line in help.split(separator: "\n") {
                #expect(line.count <= 80, "tiltsim \(command._commandName): \(line.count) columns: \(line)")
            }
        }
    }

    /// swift-argument-parser's generate-manual drops "…" from the man pages
    /// ("PATH-1  PATH-N", "(D3, D8, A0, )"): help text writes "..." instead.
    @Test func noHelpTextHasAnEllipsisCharacter() {
        let helps = Self.commands(Tiltserial.self).map { Tiltserial.helpMessage(for: $0, columns: 80) }
            + Self.commands(Tiltsim.self).map { Tiltsim.helpMessage(for: $0, columns: 80) }
        for help in helps {
            for line in help.split(separator: "\n") where line.contains("…") { Issue.record("\(line)") }
        }
    }
}
