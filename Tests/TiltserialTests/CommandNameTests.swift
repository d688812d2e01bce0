import ArgumentParser
import Testing
@testable import TiltserialCommand

/// Every command names itself: without `commandName`, ArgumentParser derives
/// the name from the type's name at run time (demangling it), which cost
/// start-up time on every run, `--help` included (docs/perf/peer.md).
@Suite struct CommandNameTests {
    static func all(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [command] + command.configuration.subcommands.flatMap { all($0) }
    }

    @Test func everyCommandHasAnExplicitName() {
        let commands = Self.all(Tiltserial.self)
        #expect(commands.count >= 8)
        for command in commands {
            #expect(command.configuration.commandName != nil, "\(command) has no commandName")
        }
    }
}
