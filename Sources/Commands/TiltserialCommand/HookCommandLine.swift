import SerialIO

/// A hook's command line: split into words, and its program found the way
/// `posix_spawnp` would find it, so a hook that cannot run is caught at start.
enum HookCommandLine {
    /// Splits like a shell would for plain words and quotes, and nothing more:
    /// no variables, globs, pipes or redirections.
    static func split(_ line: String, option: String) throws(Failure) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character? = nil
        var escaped = false
        for c in line {
            if escaped {
                current.append(c)
                escaped = false
            } else if c == "\\" && quote != "'" {
                escaped = true
                inWord = true
            } else if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " || c == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        guard quote == nil, !escaped else {
            throw Failure(.badSettings, "\(option) '\(line)' has an unclosed quote or a trailing backslash")
        }
        if inWord { words.append(current) }
        return words
    }

    /// glibc's execvp/posix_spawnp search path when PATH is unset.
    static let defaultSearchPath = "/bin:/usr/bin"

    /// The file `posix_spawnp(name)` would execute: `name` itself when it contains
    /// a slash, else the first executable regular file `dir/name` along
    /// `searchPath` (an empty entry is the current directory). Throws `.badHook`
    /// with a line that names the fix.
    static func resolve(_ name: String, searchPath: String?, option: String) throws(Failure) -> String {
        if name.contains("/") {
            switch check(name) {
            case .runnable: return name
            case .missing: throw Failure(.badHook, "\(option): \(name) does not exist; check the path")
            case .directory: throw Failure(.badHook, "\(option): \(name) is a directory, not a program; name the program to run")
            case .notExecutable: throw notExecutable(name, option)
            }
        }
        // Like execvp: skip entries that exist but cannot run, report the first of them if nothing else is found.
        var blocked: (String, Check)? = nil
        for dir in (searchPath ?? defaultSearchPath).split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (dir.isEmpty ? "." : String(dir)) + "/" + name
            let found = check(candidate)
            if found == .runnable { return candidate }
            if found != .missing, blocked == nil { blocked = (candidate, found) }
        }
        switch blocked {
        case let (path, .directory)?:
            throw Failure(.badHook, "\(option): '\(name)' on PATH is the directory \(path), not a program; give the program's full path")
        case let (path, _)?:
            throw notExecutable(path, option)
        case nil:
            throw Failure(.badHook, "\(option): '\(name)' is not a command found on PATH; check the spelling, install it, or give its full path")
        }
    }

    enum Check { case runnable, missing, directory, notExecutable }

    static func check(_ path: String) -> Check {
        guard let status = try? FileStatus.of(path).get() else { return .missing }
        if status.kind == .directory { return .directory }
        // access(X_OK) is what exec checks; for root it needs at least one x bit.
        guard status.kind == .regular, FileStatus.isExecutable(path) else { return .notExecutable }
        return .runnable
    }

    /// A script whose `#!` line names an interpreter that is not there fails
    /// every fire with exec's "No such file or directory", which points at
    /// the script: a script saved with Windows line ends asks for "/bin/sh\r".
    /// Checked at start, as the program itself is.
    static func checkInterpreter(_ path: String, searchPath: String?, option: String) throws(Failure) {
        guard let file = try? ReadOnlyFile(path) else { return }
        var head = [UInt8](repeating: 0, count: 256)
        let (count, _) = head.withUnsafeMutableBytes { file.read(into: $0) }
        // No #! and no ELF header: exec refuses it (ENOEXEC) at every fire; a shell would have run it as a script.
        guard count >= 2, head[0] == UInt8(ascii: "#"), head[1] == UInt8(ascii: "!") else {
            if count >= 4 && head[0..<4].elementsEqual([0x7F, 0x45, 0x4C, 0x46]) { return }  // a program
            throw Failure(.badHook, "\(option): \(path) is a script without a #! line, which exec cannot start; "
                          + "make its first line #!/bin/sh (or start it through its interpreter: \(option) 'sh \(path)')")
        }
        let line = head[2..<count].prefix { $0 != UInt8(ascii: "\n") }
        let words = line.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = words.first else { return }
        let interpreter = String(decoding: first, as: UTF8.self)
        if line.last == UInt8(ascii: "\r") {
            throw Failure(.badHook, "\(option): \(path) has Windows line ends (its #! line ends in a carriage return, which exec reads as part of the name); "
                          + "convert it: sed -i 's/\\r$//' \(ShellText.quoted(path))")
        }
        if check(interpreter) != .runnable {
            throw Failure(.badHook, "\(option): \(path) asks for \(interpreter) on its #! line, which is not a program here; fix that line, or install it")
        }
        if interpreter.hasSuffix("/env") {
            let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            var rest = Substring(String(decoding: line[first.endIndex...], as: UTF8.self)).drop(while: blank)
            while let last = rest.last, blank(last) { rest = rest.dropLast() }
            try checkEnvProgram(rest, script: path, searchPath: searchPath, option: option)
        }
    }

    /// `#!/usr/bin/env …`: env looks its program up on PATH at every fire, and
    /// fails there ("env: 'python': No such file or directory", counted as a
    /// failed hook). Linux hands a `#!` line's interpreter one argument, all
    /// the rest of the line: `env python3 -u` looks for a program called
    /// "python3 -u", `env -i sh` is an unknown option, and only `env -S` splits
    /// it. A line that names no program (`env`, `env -S`, `env FOO=1`) has env
    /// start the script itself again, and so on for ever.
    static func checkEnvProgram(_ rest: Substring, script: String, searchPath: String?, option: String) throws(Failure) {
        let noProgram = Failure(.badHook, "\(option): \(script)'s #! line names no program for env, which would start the script itself again, "
                                + "for ever; name its interpreter: #!/usr/bin/env sh (or python3, …)")
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let first = rest.prefix { !blank($0) }
        let program: Substring
        if first == "-S" || first == "--split-string" || first.hasPrefix("--split-string=") || (first.hasPrefix("-S") && first.count > 2) {
            // After -S: its words as a shell would split them (quotes aside): assignments and options, then the program.
            var words = rest.split(whereSeparator: blank)[...]
            let opening = words.removeFirst()
            if opening.hasPrefix("--split-string=") { words.insert(opening.dropFirst("--split-string=".count), at: words.startIndex) }
            else if opening.hasPrefix("-S") && opening.count > 2 { words.insert(opening.dropFirst(2), at: words.startIndex) }
            switch envProgram(in: words) {
            case .none: throw noProgram
            case .notGuessed: return
            case .named(let found): program = found
            }
        } else if first.hasPrefix("-") {
            throw Failure(.badHook, "\(option): \(script)'s #! line gives env '\(rest)' as one argument (Linux passes the rest of a #! line as one), "
                          + "which env cannot read as options; split it with env -S: #!/usr/bin/env -S \(rest)")
        } else if rest.contains(where: blank) {
            throw Failure(.badHook, "\(option): \(script)'s #! line gives env '\(rest)' as one program name (Linux passes the rest of a #! line as one argument); "
                          + "split it with env -S: #!/usr/bin/env -S \(rest), or drop what follows \(first)")
        } else if rest.isEmpty || rest.contains("=") {
            throw noProgram
        } else {
            program = rest
        }
        if program.contains("$") { return }
        do throws(Failure) {
            _ = try resolve(String(program), searchPath: searchPath, option: option)
        } catch {
            throw Failure(.badHook, "\(option): \(script) asks env for \(program) on its #! line, which is not a command found on PATH; fix that line, or install it")
        }
    }

    /// What env's words after -S start: nothing, a program, or an option
    /// this does not know, before which it does not guess.
    enum EnvProgram: Equatable { case none, notGuessed, named(Substring) }

    static func envProgram(in words: ArraySlice<Substring>) -> EnvProgram {
        var rest = words
        while let word = rest.first {
            rest.removeFirst()
            switch word {
            case "--": return rest.first.map { .named($0) } ?? .none
            case "-i", "-0", "-v", "-", "--ignore-environment", "--null", "--debug": continue
            case "-u", "-C", "--unset", "--chdir":
                guard !rest.isEmpty else { return .none }
                rest.removeFirst()
            default:
                if word.hasPrefix("--unset=") || word.hasPrefix("--chdir=") || (word.hasPrefix("-u") || word.hasPrefix("-C")) && word.count > 2 { continue }
                if word.hasPrefix("-") { return .notGuessed }
                if word.contains("=") && !word.hasPrefix("=") { continue }  // NAME=VALUE
                return .named(word)
            }
        }
        return .none
    }

    static func notExecutable(_ path: String, _ option: String) -> Failure {
        Failure(.badHook, "\(option): \(path) is not executable; run `chmod +x \(ShellText.quoted(path))` or start it through its interpreter (\(option) 'sh \(path)')")
    }
}
