/// What both tools' usage-error lines share (tiltserial's and tiltsim's
/// `UsageErrorLine`): ArgumentParser's message as one sentence, the command
/// whose `--help` to name, and a negative value it took for an option.
public enum UsageErrorText {
    /// ArgumentParser's message on one line, without its closing full stop
    /// ("… or 'none'."): the fix follows after "; ".
    public static func sentence(_ message: String) -> String {
        var what = message.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: " ") }
            .joined(separator: " ")
        while what.last == "." || what.last == " " { what.removeLast() }
        // "Unknown option '--view'. Did you mean '--axes'?" reads on as "…'--view' (did you mean '--axes'?)".
        if let question = what.firstRange(of: ". Did you mean "), what.hasSuffix("?") {
            what = what[..<question.lowerBound] + " (did you mean " + what[question.upperBound...] + ")"
        }
        return what
    }

    /// `TOOL SUBCOMMAND --help`, as ArgumentParser's usage text (`fullMessage`)
    /// names it in "See 'tiltsim run --help'"; `TOOL --help` without one.
    public static func helpCommand(in fullMessage: String, tool: String) -> String {
        for line in fullMessage.split(separator: "\n") {
            guard let start = line.firstRange(of: "See '"), let end = line[start.upperBound...].firstRange(of: " --help'") else {
                continue
            }
            return String(line[start.upperBound..<end.lowerBound]) + " --help"
        }
        return "\(tool) --help"
    }

    /// The fix for a value ArgumentParser could not see, nil when it is not
    /// that: for `what` "Missing value for '--axes <x,-y,z>'" the option's next
    /// word when it starts with one '-' (`--axes=-y,x,z`, the mounting table's
    /// values), or an empty value given as `--opt=` (`--opt ''`); else the
    /// first option followed by a negative number (`--rest-angle=-30`), which
    /// ArgumentParser reads as another option. `show` shortens the option and value.
    public static func valueFix(_ arguments: [String], what: String, show: (String) -> String = { $0 }) -> String? {
        let missing = "Missing value for '"
        if what.hasPrefix(missing) {
            let option = String(what.dropFirst(missing.count).prefix { $0 != " " && $0 != "'" })
            if let at = arguments.lastIndex(of: option), at + 1 < arguments.count {
                let value = arguments[at + 1]
                if value.hasPrefix("-"), !value.hasPrefix("--"), value.count > 1, !["-h", "-q"].contains(value) {
                    return attached(show("\(option)=\(value)"))
                }
            }
            if arguments.contains(option + "=") { return "an empty value is given as '': \(show(option)) ''" }
        }
        for (option, value) in zip(arguments, arguments.dropFirst())
        where option.hasPrefix("--") && !option.contains("=") && looksNegative(value) {
            return attached(show("\(option)=\(value)"))
        }
        return nil
    }

    private static func attached(_ example: String) -> String {
        "a value that starts with '-' must be attached with '=': \(example)"
    }

    /// `-5`, `-0.5`, `-.5`, `-1e3`, `-9223372036854775807`: a minus, then a number.
    public static func looksNegative(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        let rest = text.dropFirst()
        guard let first = rest.first, first.isNumber || first == "." else { return false }
        return rest.allSatisfy { $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+" }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var text = self
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return text
    }
}
