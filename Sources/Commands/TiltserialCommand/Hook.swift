import SerialIO
import SystemPackage

/// A command run on an event: `--on-pull CMD` (each time the ribbon fires),
/// and any later `--on-...` option.
///
/// The command line is split into words by the user's text alone (quotes group
/// words, no shell), and the event's data goes only into environment variables:
/// nothing a device sends ever becomes part of a command line. Its program is
/// found on PATH when the hook is made, so one that cannot run stops the run
/// at start (`ExitStatus.badHook`). Each child:
/// - writes its stdout to our stderr (stdout carries only tiltserial's own
///   output, the `--json` lines) and reads /dev/null;
/// - inherits no descriptor beyond 0-2 (`posix_spawn_file_actions_addclosefrom_np`);
/// - runs in its own process group with default signal handling, so `finish`
///   can end a shell and what it started.
///
/// At most `maxRunning` run at once; further fires are counted as skipped.
/// Use from one thread.
public final class Hook {
    /// The option that set it, for messages ("--on-pull").
    public let option: String
    /// The command's words; `arguments[0]` as the user wrote it.
    public let arguments: [String]
    /// The file that runs (argv[0] resolved on PATH, like posix_spawnp).
    public let executable: String
    /// At most this many children run at once (4 unless the caller says); a fire beyond it is skipped and counted.
    public let maxRunning: Int
    /// Where the child's stdout and stderr go (default: our stderr).
    let outputDescriptor: CInt
    private(set) var children: [ChildProcess] = []
    /// What the hook has done so far (started, skipped, failed), for the summary and JSON.
    public private(set) var counters = HookCounters()

    /// Pids of the hooks still running (or not yet reaped).
    public var running: [Int32] { children.map(\.pid) }

    /// - Parameters:
    ///   - option: the option's name, for messages.
    ///   - commandLine: the option's value, split into words (no shell).
    ///   - searchPath: where to look for a program named without a slash (PATH).
    ///   - outputDescriptor: the descriptor the child's stdout and stderr are
    ///     duplicated from (our stderr; tests pass a pipe).
    public init(option: String, commandLine: String, maxRunning: Int = 4,
                searchPath: String? = currentSearchPath(), outputDescriptor: CInt = 2) throws(Failure) {
        let words = try HookCommandLine.split(commandLine, option: option)
        guard let program = words.first else {
            throw Failure(.badSettings, "\(option) needs a command, e.g. \(option) 'notify-send pulled'")
        }
        self.option = option
        arguments = words
        executable = try HookCommandLine.resolve(program, searchPath: searchPath, option: option)
        try HookCommandLine.checkInterpreter(executable, searchPath: searchPath, option: option)
        self.maxRunning = maxRunning
        self.outputDescriptor = outputDescriptor
    }

    /// Starts the command with `environment` added to ours. `.failed` carries a
    /// one-line message for the caller to log (the program vanished, out of
    /// processes...); `.skipped` means `maxRunning` are still running.
    @discardableResult
    public func fire(environment: [(String, String)]) -> HookLaunch {
        reap()
        guard children.count < maxRunning else {
            counters.skipped += 1
            return .skipped(running: children.count)
        }
        var env = Self.currentEnvironment().filter { entry in !environment.contains { entry.hasPrefix($0.0 + "=") } }
        env += environment.map { "\($0.0)=\($0.1)" }
        switch spawn(environment: env) {
        case .success(let pid):
            children.append(ChildProcess(pid: pid))
            counters.started += 1
            return .started(pid: pid)
        case .failure(let error):
            counters.spawnFailed += 1
            return .failed(message: "\(option): cannot start \(executable): \(error) (errno \(error.rawValue)); this fire was skipped")
        }
    }

    private func spawn(environment: [String]) -> Result<Int32, Errno> {
        // stdout and stderr to the hooks' log; whatever lacks O_CLOEXEC (ours or a
        // library's: the port, pipes, files) stays with us; SIGPIPE back to default
        // (we ignore it); finish signals the group.
        ProcessSpawn(defaultSignals: [.brokenPipe, .interrupt, .terminate, .child],
                     descriptors: [(outputDescriptor, 1), (outputDescriptor, 2)],  // stdout, stderr
                     stdinFromDevNull: true, closeTheRest: true, environment: environment)
            .spawn(executable, argv: arguments)
    }

    /// Collects finished children without waiting.
    public func reap() {
        children.removeAll { child in
            guard let ending = child.reapIfEnded() else { return false }
            if case .exited(0) = ending {} else { counters.failedExits += 1 }
            return true
        }
    }

    /// At exit: gives the running hooks `patience` to end by themselves,
    /// then sends SIGTERM to their process groups, and SIGKILL to what is left
    /// after `grace`. Waiting is a poll on pidfds (see `ChildProcess`),
    /// never a busy loop; the whole call is bounded by patience + grace + 2 s.
    @discardableResult
    public func finish(patience: Duration = .milliseconds(500), grace: Duration = .milliseconds(500)) -> HookShutdown {
        var shutdown = HookShutdown()
        reap()
        let atStart = children.count
        waitForRunning(for: patience)
        shutdown.endedInTime = atStart - children.count
        for (signal, wait) in [(Signal.terminate, grace), (.kill, .seconds(2))] where !children.isEmpty {
            let before = children.count
            children.forEach { $0.send(signal) }
            waitForRunning(for: wait, countingFailures: false)
            if signal == .terminate { shutdown.terminated = before - children.count } else { shutdown.killed = before - children.count }
        }
        shutdown.stillRunning = children.count  // stuck in the kernel even after SIGKILL
        counters.cutShort += shutdown.cutShort
        return shutdown
    }

    private func waitForRunning(for span: Duration, countingFailures: Bool = true) {
        let deadline = MonotonicClock.deadline(after: span)
        while true {
            if countingFailures { reap() } else { children.removeAll { $0.reapIfEnded() != nil } }
            let now = MonotonicClock.now()
            if children.isEmpty || now >= deadline { return }
            ChildProcess.waitForAnExit(children, timeout: .microseconds(deadline.micros(since: now)))
        }
    }

    /// Our PATH, which decides where a program named without a slash is found.
    public static func currentSearchPath() -> String? { ProcessEnvironment.value("PATH") }

    static func currentEnvironment() -> [String] { ProcessEnvironment.entries() }
}

/// What `Hook.fire` did.
public enum HookLaunch: Sendable, Equatable {
    /// The child was spawned (posix_spawnp) with this process id.
    case started(pid: Int32)
    /// `maxRunning` hooks were still running.
    case skipped(running: Int)
    /// The spawn failed; `message` is one line for stderr.
    case failed(message: String)
}

/// A hook's counts over a run, for the summary and JSON.
public struct HookCounters: Sendable, Equatable {
    /// Children started.
    public var started = 0
    /// Fires not run because `maxRunning` were still running.
    public var skipped = 0
    /// Fires whose spawn failed (reported by `fire` as `.failed`).
    public var spawnFailed = 0
    /// Children that exited non-zero or died of a signal we did not send.
    public var failedExits = 0
    /// Children still running at exit and ended by SIGTERM or SIGKILL.
    public var cutShort = 0

    /// All counts zero.
    public init() {}
}

/// What `Hook.finish` did to the hooks still running at exit.
public struct HookShutdown: Sendable, Equatable {
    /// Ended by themselves within the patience.
    public var endedInTime = 0
    /// Ended after SIGTERM.
    public var terminated = 0
    /// Needed SIGKILL.
    public var killed = 0
    /// Not reaped even after SIGKILL (stuck in the kernel); left behind.
    public var stillRunning = 0

    /// Hooks that did not finish on their own.
    public var cutShort: Int { terminated + killed + stillRunning }

    /// All counts zero.
    public init() {}
}

