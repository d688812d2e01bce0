import ArgumentParser
import TiltCore

/// ArgumentParser's own usage errors (an unknown option, a missing argument,
/// a value of the wrong type) as one line naming the fix, in tiltserial's
/// shape: `tiltsim: WHAT; see `tiltsim run --help` for the options`, or for a
/// negative value taken for an option, how to attach it (`--noise=-1`). Its
/// quoted values are cut at 40 characters, as every other message's.
enum UsageErrorLine {
    static func line(for error: any Error, arguments: [String]) -> String {
        var what = Tiltsim.message(for: error)
            .split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        // ArgumentParser ends some messages with a full stop ("… or 'none'."); the fix follows after "; ".
        while what.last == "." || what.last == " " { what.removeLast() }
        let fix = attachedNegativeValue(arguments)
            .map { "a value that starts with '-' must be attached with '=': \(shortened($0, limit: 80))" }
            ?? "see `\(helpCommand(for: error))` for the options"
        return "tiltsim: \(what.isEmpty ? "bad arguments" : shortenQuotes(in: what)); \(fix)"
    }

    /// `what` with each 'quoted value' cut as `quoted` cuts it (ArgumentParser quotes them whole).
    static func shortenQuotes(in what: String) -> String {
        let line = what.replacing(/'([^']*)'/) { quoted($0.output.1) }
        return OneLineText.escaped(line, limit: 4096)
    }

    /// `--opt=-5` for the first option followed by a negative number (which
    /// ArgumentParser reads as another option), nil when there is none.
    static func attachedNegativeValue(_ arguments: [String]) -> String? {
        for (option, value) in zip(arguments, arguments.dropFirst())
        where option.hasPrefix("--") && !option.contains("=") && value.hasPrefix("-") && value.count > 1
            && Double(value) != nil {
            return "\(option)=\(value)"
        }
        return nil
    }

    /// `tiltsim SUBCOMMAND --help`, as ArgumentParser's usage text names it.
    static func helpCommand(for error: any Error) -> String {
        let full = Tiltsim.fullMessage(for: error, columns: 1000)
        for line in full.split(separator: "\n") {
            guard let start = line.firstRange(of: "See '"), let end = line[start.upperBound...].firstRange(of: " --help'") else {
                continue
            }
            return String(line[start.upperBound..<end.lowerBound]) + " --help"
        }
        return "tiltsim --help"
    }
}
