import ArgumentParser
import TiltCore

/// ArgumentParser's own usage errors (an unknown option, a missing argument,
/// a value of the wrong type) as one line naming the fix, in tiltserial's
/// shape: `tiltsim: WHAT; see `tiltsim run --help` for the options`, or for a
/// negative value taken for an option, how to attach it (`--noise=-1`). Its
/// quoted values are cut at 40 characters, as every other message's.
enum UsageErrorLine {
    static func line(for error: any Error, arguments: [String]) -> String {
        let what = UsageErrorText.sentence(Tiltsim.message(for: error))
        let fix = UsageErrorText.valueFix(arguments, what: what) { shortened($0, limit: 80) }
            ?? "see `\(UsageErrorText.helpCommand(in: Tiltsim.fullMessage(for: error, columns: 1000), tool: "tiltsim"))` for the options"
        return "tiltsim: \(what.isEmpty ? "bad arguments" : shortenQuotes(in: what)); \(fix)"
    }

    /// `what` with each 'quoted value' cut as `quoted` cuts it (ArgumentParser quotes them whole).
    static func shortenQuotes(in what: String) -> String {
        let line = what.replacing(/'([^']*)'/) { quoted($0.output.1) }
        return OneLineText.escaped(line, limit: 4096)
    }
}
