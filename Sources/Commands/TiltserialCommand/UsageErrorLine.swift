import ArgumentParser
import TiltCore

/// ArgumentParser's usage errors in the style of every other error: one line,
/// `tiltserial: error: WHAT; FIX`, exit code 21 (badSettings, docs/usage.md).
/// ArgumentParser's own text says what is wrong; the fix is ours: a negative
/// value that was taken for an option (`--rest-angle -30`, `--axes -y,x,z`) is
/// shown attached (`--rest-angle=-30`), anything else points at the command's `--help`.
/// `--help`, `--version` and completion scripts are not errors and keep
/// ArgumentParser's output.
enum UsageErrorLine {
    static func line(for error: any Error, arguments: [String]) -> String {
        let what = UsageErrorText.sentence(Tiltserial.message(for: error))
        if let group = groupGivenAnUnknownCommand(what, arguments: arguments) { return group }
        if let elsewhere = optionOfAnotherCommand(what, arguments: arguments) { return elsewhere }
        let fix = UsageErrorText.valueFix(arguments, what: what)
            ?? "see `\(UsageErrorText.helpCommand(in: Tiltserial.fullMessage(for: error, columns: 1000), tool: "tiltserial"))` for the options"
        return "tiltserial: error: \(what.isEmpty ? "bad arguments" : OneLineText.escaped(what, limit: 4096)); \(fix)"
    }

    /// `replay FILE --view none`: an option the command lacks that another
    /// command takes. ArgumentParser's guess ("did you mean '--axes'?") points
    /// the wrong way; the person took it from the other command's help.
    static func optionOfAnotherCommand(_ what: String, arguments: [String]) -> String? {
        let prefix = "Unknown option '"
        guard what.hasPrefix(prefix), let end = what.dropFirst(prefix.count).firstIndex(of: "'") else { return nil }
        let option = String(what[what.index(what.startIndex, offsetBy: prefix.count)..<end])
        guard option.hasPrefix("--"), let name = option.split(separator: "=").first.map(String.init) else { return nil }
        let commands = Tiltserial.configuration.subcommands
        guard let used = commands.first(where: { arguments.first == $0._commandName }) else { return nil }
        // An option its help lists, or a command of its group's (a parse would stop first at a missing argument).
        func lists(_ command: ParsableCommand.Type) -> Bool {
            command.helpMessage(columns: 10_000).split(whereSeparator: { " \n[](),|".contains($0) }).contains { $0 == name }
        }
        let takers = commands.filter { command in
            command != used && (lists(command) || command.configuration.subcommands.contains(where: lists))
        }
        guard !takers.isEmpty else { return nil }
        let names = takers.map { command in
            command == Run.self ? "a run's (tiltserial PORT)"
                : command.configuration.subcommands.isEmpty ? "\(command._commandName)'s" : "the \(command._commandName) commands'"
        }
        let whose = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        return "tiltserial: error: \(OneLineText.escaped(name, limit: 40)) is not an option of \(used._commandName) but \(whose): "
            + "leave it out (see `tiltserial \(used._commandName) --help`)"
    }

    /// `pins frob`: the word after a command that has commands of its own
    /// names none of them. ArgumentParser hands it to the default command
    /// (`pins list`: "Unexpected argument 'frob'"); the person meant a command.
    static func groupGivenAnUnknownCommand(_ what: String, arguments: [String]) -> String? {
        let prefix = "Unexpected argument '"
        guard what.hasPrefix(prefix), what.hasSuffix("'") else { return nil }
        let word = String(what.dropFirst(prefix.count).dropLast())
        for group in Tiltserial.configuration.subcommands where !group.configuration.subcommands.isEmpty {
            let name = group._commandName
            guard let at = arguments.firstIndex(of: name), arguments.index(after: at) < arguments.endIndex,
                  arguments[arguments.index(after: at)] == word else { continue }
            let commands = group.configuration.subcommands.map { "\(name) \($0._commandName)" }
            return "tiltserial: error: \(name) \(OneLineText.escaped(word, limit: 200)): no such command; "
                + "use \(commands.dropLast().joined(separator: ", ")) or \(commands.last ?? name) (see `tiltserial \(name) --help`)"
        }
        return nil
    }
}
