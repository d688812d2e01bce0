import ArgumentParser
import TiltCore

/// ArgumentParser's usage errors in the style of every other error: one line,
/// `tiltserial: error: WHAT; FIX`, exit code 21 (badSettings, docs/usage.md).
/// ArgumentParser's own text says what is wrong; the fix is ours: a negative
/// value that was taken for an option (`--rest-angle -30`) is shown attached
/// (`--rest-angle=-30`), anything else points at the command's `--help`.
/// `--help`, `--version` and completion scripts are not errors and keep
/// ArgumentParser's output.
enum UsageErrorLine {
    static func line(for error: any Error, arguments: [String]) -> String {
        var what = Tiltserial.message(for: error)
            .split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingSpaces() }
            .joined(separator: " ")
        // ArgumentParser ends some messages with a full stop ("… or 'none'."); the fix follows after "; ".
        while what.last == "." || what.last == " " { what.removeLast() }
        if let group = groupGivenAnUnknownCommand(what, arguments: arguments) { return group }
        let fix = attachedNegativeValue(arguments)
            .map { "a value that starts with '-' must be attached with '=': \($0)" }
            ?? "see `\(helpCommand(for: error))` for the options"
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

    /// `--opt=-5` for the first option followed by a negative number (which
    /// ArgumentParser reads as another option), nil when there is none.
    static func attachedNegativeValue(_ arguments: [String]) -> String? {
        for (option, value) in zip(arguments, arguments.dropFirst())
        where option.hasPrefix("--") && !option.contains("=") && looksNegative(value) {
            return "\(option)=\(value)"
        }
        return nil
    }

    /// `-5`, `-0.5`, `-.5`, `-1e3`, `-9223372036854775807`: a minus, then a number.
    static func looksNegative(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        let rest = text.dropFirst()
        guard let first = rest.first, first.isNumber || first == "." else { return false }
        return rest.allSatisfy { $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+" }
    }

    /// `tiltserial SUBCOMMAND --help`, as ArgumentParser's usage text names it.
    static func helpCommand(for error: any Error) -> String {
        let full = Tiltserial.fullMessage(for: error, columns: 1000)
        for line in full.split(separator: "\n") {
            guard let start = line.firstRange(of: "See '"), let end = line[start.upperBound...].firstRange(of: " --help'") else {
                continue
            }
            return String(line[start.upperBound..<end.lowerBound]) + " --help"
        }
        return "tiltserial --help"
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
