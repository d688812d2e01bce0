#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--on-pull CMD`: runs a command each time the ribbon fires.
///
/// The command line is split into words by the user's text alone (quotes group
/// words, no shell), and the event's data goes only into environment variables:
/// nothing a device sends ever becomes part of a command line. Children are
/// reaped without blocking; at most `maxRunning` run at once, further pulls are
/// counted as skipped rather than piling up processes.
public final class PullAction {
    public let arguments: [String]
    public let maxRunning: Int
    public private(set) var running: [pid_t] = []
    public private(set) var skipped = 0
    public private(set) var started = 0

    public init(commandLine: String, maxRunning: Int = 4) throws(Failure) {
        let words = try Self.split(commandLine)
        guard !words.isEmpty else { throw Failure(.badSettings, "--on-pull needs a command, e.g. --on-pull 'notify-send pulled'") }
        arguments = words
        self.maxRunning = maxRunning
    }

    /// Starts the command with `environment` added to ours. Returns the pid, or
    /// nil when too many are still running or the spawn failed.
    @discardableResult
    public func fire(environment: [(String, String)]) -> pid_t? {
        reap()
        guard running.count < maxRunning else {
            skipped += 1
            return nil
        }
        var env = Self.currentEnvironment().filter { entry in !environment.contains { entry.hasPrefix($0.0 + "=") } }
        env += environment.map { "\($0.0)=\($0.1)" }
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let status = posix_spawnp(&pid, arguments[0], nil, nil, argv, envp)
        guard status == 0 else {
            skipped += 1
            return nil
        }
        running.append(pid)
        started += 1
        return pid
    }

    /// Collects finished children without waiting.
    public func reap() {
        running.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) != 0
        }
    }

    /// Waits for the children still running (at exit).
    public func waitAll() {
        for pid in running {
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        running.removeAll()
    }

    /// Splits like a shell would for plain words and quotes, and nothing more:
    /// no variables, globs, pipes or redirections.
    static func split(_ line: String) throws(Failure) -> [String] {
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
            throw Failure(.badSettings, "--on-pull '\(line)' has an unclosed quote or a trailing backslash")
        }
        if inWord { words.append(current) }
        return words
    }

    static func currentEnvironment() -> [String] {
        var result: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            result.append(String(cString: entry))
            pointer += 1
        }
        return result
    }
}
