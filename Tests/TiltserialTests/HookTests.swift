import Foundation
import Testing
import TiltserialCommand

/// `--on-pull CMD` (and any later hook): checked at start, spawn failures
/// counted, output kept off stdout, no inherited descriptors, cut short at exit.
@Suite struct HookTests {
    /// A shell script in a fresh temp dir, executable unless `mode` says otherwise.
    static func script(_ name: String, _ body: String, mode: mode_t = 0o755) throws -> String {
        let path = tempPath(name)
        try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, mode) == 0)
        return path
    }

    static func pullCSV() throws -> String {
        let csv = tempPath("pull.csv")
        try Data(OnPullTests.pullCSV().utf8).write(to: URL(fileURLWithPath: csv))
        return csv
    }

    // MARK: (a) checked at start, exit code 22, before the port is opened

    @Test func aHookThatCannotRunStopsBeforeThePortIsOpened() throws {
        let directory = (tempPath("x") as NSString).deletingLastPathComponent
        let notExecutable = try Self.script("hook.sh", "true", mode: 0o644)
        // Scripts whose #! interpreter is not there: exec's ENOENT named the script, at every fire.
        let windows = tempPath("crlf-hook.sh"), missing = tempPath("interp-hook.sh")
        try Data("#!/bin/sh\r\necho pulled\r\n".utf8).write(to: URL(fileURLWithPath: windows))
        try Data("#!/nonexistent/interp -x\ntrue\n".utf8).write(to: URL(fileURLWithPath: missing))
        let bare = tempPath("bare-hook.sh")  // no #! line: ENOEXEC at every fire
        try Data("echo pulled\n".utf8).write(to: URL(fileURLWithPath: bare))
        // env looks its program up at every fire: "env: 'nosuchinterp': No such file or directory".
        let envMissing = tempPath("env-hook.sh"), envSplit = tempPath("env-split-hook.sh"), envS = tempPath("env-s-hook.sh")
        try Data("#!/usr/bin/env nosuchinterp-tiltserial\ntrue\n".utf8).write(to: URL(fileURLWithPath: envMissing))
        try Data("#!/usr/bin/env sh -e\ntrue\n".utf8).write(to: URL(fileURLWithPath: envSplit))
        try Data("#!/usr/bin/env -S A=1 nosuchinterp-tiltserial -u\ntrue\n".utf8).write(to: URL(fileURLWithPath: envS))
        // Lines that name no program have env start the script again, for ever (a busy loop at each fire).
        var looping: [String] = []
        for (k, line) in ["#!/usr/bin/env", "#!/usr/bin/env -S", "#!/usr/bin/env FOO=1", "#!/usr/bin/env -S -i FOO=1"].enumerated() {
            let path = tempPath("env-loop-\(k).sh")
            try Data((line + "\ntrue\n").utf8).write(to: URL(fileURLWithPath: path))
            looping.append(path)
        }
        let envOption = tempPath("env-option-hook.sh")  // "-i sh" is one argument: env: invalid option -- ' '
        try Data("#!/usr/bin/env -i sh\ntrue\n".utf8).write(to: URL(fileURLWithPath: envOption))
        for path in [windows, missing, bare, envMissing, envSplit, envS, envOption] + looping { #expect(chmod(path, 0o755) == 0) }
        let cases: [(String, String)] = [
            ("/nonexistent/cmd", "/nonexistent/cmd"),
            ("notfy-send-tiltserial-typo pulled", "PATH"),
            (directory, "directory"),
            (notExecutable, "chmod +x"),
            (windows, "has Windows line ends (its #! line ends in a carriage return, which exec reads as part of the name); convert it: sed -i 's/\\r$//' \(windows)"),
            (missing, "asks for /nonexistent/interp on its #! line, which is not a program here; fix that line, or install it"),
            (bare, "is a script without a #! line, which exec cannot start; make its first line #!/bin/sh"),
            (envMissing, "\(envMissing) asks env for nosuchinterp-tiltserial on its #! line, which is not a command found on PATH; fix that line, or install it"),
            (envS, "\(envS) asks env for nosuchinterp-tiltserial on its #! line"),
            (envSplit, "\(envSplit)'s #! line gives env 'sh -e' as one program name (Linux passes the rest of a #! line as one argument); split it with env -S: #!/usr/bin/env -S sh -e, or drop what follows sh"),
            (envOption, "\(envOption)'s #! line gives env '-i sh' as one argument (Linux passes the rest of a #! line as one), which env cannot read as options; split it with env -S: #!/usr/bin/env -S -i sh"),
        ] + looping.map { ($0, "\($0)'s #! line names no program for env, which would start the script itself again, for ever; name its interpreter: #!/usr/bin/env sh") }
        for (command, hint) in cases {
            // The port does not exist either: exit 22, not 10, shows the hook is checked first.
            let run = runTiltserial(["/dev/tiltserial-no-such-port", "--on-pull", command])
            #expect(run.code == 22, "\(command): \(run.err)")
            #expect(run.err.hasPrefix("tiltserial: error: --on-pull"), "\(run.err)")
            #expect(run.err.contains(hint), "\(run.err)")
            #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
        }
        let replay = runTiltserial(["replay", try Self.pullCSV(), "--on-pull", "/nonexistent/cmd"])
        #expect(replay.code == 22)
    }

    @Test func commandsAreFoundOnPathLikePosixSpawnp() throws {
        let hook = try Hook(option: "--on-pull", commandLine: "sh -c true")
        #expect(hook.executable.hasSuffix("/sh"))
        #expect(hook.arguments == ["sh", "-c", "true"])
        let dir = (try Self.script("my-hook", "true") as NSString).deletingLastPathComponent
        let found = try Hook(option: "--on-pull", commandLine: "my-hook", searchPath: "/nonexistent:\(dir)")
        #expect(found.executable == dir + "/my-hook")
        // #!/usr/bin/env finds its program on the same PATH; -S splits the rest of the line.
        for (name, line) in [("env-sh", "#!/usr/bin/env sh"), ("env-s-sh", "#!/usr/bin/env -S VAR=1 sh -e "), ("env-my", "#!/usr/bin/env my-hook"),
                             ("env-s-u", "#!/usr/bin/env -S -u FOO sh"), ("env-s-c", "#!/usr/bin/env -S -C /tmp sh"), ("env-s-var", "#!/usr/bin/env -S ${NOPE}sh"),
                             ("env-s-joined", "#!/usr/bin/env -Ssh")] {
            let path = tempPath(name)
            try Data((line + "\ntrue\n").utf8).write(to: URL(fileURLWithPath: path))
            #expect(chmod(path, 0o755) == 0)
            #expect(throws: Never.self, "\(line)") { try Hook(option: "--on-pull", commandLine: path, searchPath: "/usr/bin:/bin:\(dir)") }
        }
    }

    // MARK: (b) run-time spawn failures are counted and reported

    @Test func aSpawnFailureAtRunTimeIsReportedAndCounted() throws {
        let path = try Self.script("vanishing.sh", "true")
        let hook = try Hook(option: "--on-pull", commandLine: path)
        #expect(unlink(path) == 0)
        guard case .failed(let message) = hook.fire(environment: []) else {
            Issue.record("the spawn of a deleted program did not fail")
            return
        }
        #expect(message.hasPrefix("--on-pull: cannot start \(path)"), "\(message)")
        #expect(!message.contains("\n"))
        #expect(hook.counters.spawnFailed == 1)
        #expect(hook.counters.started == 0)
    }

    // MARK: (c) output and descriptors

    @Test func hookOutputNeverLandsInTheJSONStream() throws {
        let binary = Bundle.main.bundleURL.appendingPathComponent("tiltserial")
        let process = Process()
        process.executableURL = binary
        // --no-config: the user's own calibration must not change what this replay does.
        process.arguments = ["replay", try Self.pullCSV(), "--no-config", "--ribbon-center-x", "64", "--json",
                             "--on-pull", "sh -c 'echo HOOK-SAYS-HI; echo HOOK-ERR >&2'"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // Read both pipes to their end on other threads, so neither fills.
        let outText = readingOnThread { String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        let errText = readingOnThread { String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        let stdout = try outText(), stderr = try errText()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stdout.contains("\"fired\":true"))
        #expect(!stdout.contains("HOOK"), "hook output reached stdout")
        for line in stdout.split(separator: "\n") { #expect(line.hasPrefix("{"), "not JSON: \(line)") }
        #expect(stderr.contains("HOOK-SAYS-HI"))
        #expect(stderr.contains("HOOK-ERR"))
    }

    @Test func childrenInheritNoDescriptorsBeyondTheStandardThree() throws {
        let leaked = open("/dev/null", O_RDONLY)  // deliberately without O_CLOEXEC
        #expect(leaked > 2)
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(leaked); close(pipeEnds[0]); close(pipeEnds[1]) }
        let report = tempPath("fds.txt")
        let checker = try Self.script("fds.sh", """
            : > "$REPORT"
            for n in \(leaked) \(pipeEnds[0]) \(pipeEnds[1]); do
              if [ -e /proc/$$/fd/$n ]; then echo "$n" >> "$REPORT"; fi
            done
            [ -e /proc/$$/fd/0 ] && [ -e /proc/$$/fd/1 ] && [ -e /proc/$$/fd/2 ] && echo std >> "$REPORT"
            """)
        let hook = try Hook(option: "--on-pull", commandLine: checker)
        guard case .started = hook.fire(environment: [("REPORT", report)]) else {
            Issue.record("the hook did not start")
            return
        }
        let end = hook.finish(patience: .seconds(30))
        #expect(end.cutShort == 0)
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "std\n")
    }

    // MARK: (d) at exit: SIGTERM, then SIGKILL after the grace

    @Test func aLongHookIsTerminatedAtExit() throws {
        let hook = try Hook(option: "--on-pull", commandLine: "sleep 60")
        guard case .started(let pid) = hook.fire(environment: []) else {
            Issue.record("the hook did not start")
            return
        }
        let start = Date()
        let end = hook.finish(patience: .zero, grace: .milliseconds(500))
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(end.terminated == 1)
        #expect(end.killed == 0)
        #expect(end.cutShort == 1)
        #expect(hook.counters.cutShort == 1)
        #expect(hook.running.isEmpty)
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the child is still there (not reaped)")
    }

    @Test func aHookThatIgnoresSIGTERMIsKilledAfterTheGrace() throws {
        // `trap '' TERM` also makes the shell's own children ignore it; the whole
        // process group must still go. The script says "ready" (on the pipe given
        // as its output) once the trap is set, so SIGTERM cannot come first.
        let stubborn = try Self.script("stubborn.sh", "trap '' TERM\necho ready\nsleep 60\necho done")
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let hook = try Hook(option: "--on-pull", commandLine: stubborn, outputDescriptor: ends[1])
        let launch = hook.fire(environment: [])
        close(ends[1])  // only the child holds the write end now
        guard case .started = launch else {
            Issue.record("the hook did not start")
            return
        }
        var ready = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 30_000) == 1)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(String(decoding: buffer[..<max(0, read(ends[0], &buffer, 16))], as: UTF8.self) == "ready\n")
        let end = hook.finish(patience: .zero, grace: .milliseconds(300))
        #expect(end.terminated == 0)
        #expect(end.killed == 1)
        #expect(end.cutShort == 1)
        #expect(hook.running.isEmpty)
    }

    @Test func aReplayWithASleepingHookEndsPromptly() throws {
        let start = Date()
        let run = runTiltserial(["replay", try Self.pullCSV(), "--ribbon-center-x", "64", "--on-pull", "sleep 60"], seconds: 30)
        #expect(run.code == 0, "\(run.err)")
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(run.err.contains("1 --on-pull hook cut short at exit"), "\(run.err)")
    }
}

/// Runs `body` on its own thread; the returned closure waits for its result (bounded).
func readingOnThread(_ body: @escaping @Sendable () -> String) -> () throws -> String {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result = ""
    Thread {
        result = body()
        done.signal()
    }.start()
    return {
        guard done.wait(timeout: .now() + 60) == .success else { throw CocoaError(.fileReadUnknown) }
        return result
    }
}
