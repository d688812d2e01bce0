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
        let fix = UsageErrorText.valueFix(arguments, what: what)
            ?? "see `\(UsageErrorText.helpCommand(in: Tiltserial.fullMessage(for: error, columns: 1000), tool: "tiltserial"))` for the options"
        return "tiltserial: error: \(what.isEmpty ? "bad arguments" : OneLineText.escaped(what, limit: 4096)); \(fix)"
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
