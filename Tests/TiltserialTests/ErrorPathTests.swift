import Foundation
import SerialIO
import Testing
@testable import TiltserialCommand
import TestSupport
import TiltPipeline

@Suite struct ErrorPathTests {
    @Test func noSuchPortSuggestsList() {
        let r = runTiltserial(["/dev/tiltserial-no-such-port"])
        #expect(r.code == 10)
        #expect(r.err == "tiltserial: error: /dev/tiltserial-no-such-port: no such serial port; run `tiltserial list` to see the ports present\n")
    }

    @Test func aRegularFileIsNotASerialDevice() {
        let file = tempPath("plain.txt")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let r = runTiltserial([file])
        #expect(r.code == 14)
        #expect(r.err.contains("not a serial device"))
    }

    @Test func aBusyPortSaysSo() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let holder = try SerialPort.open(path: pty.slavePath)
        defer { holder.close() }
        let r = runTiltserial([pty.slavePath])
        #expect(r.code == 13)
        #expect(r.err.contains("port busy"))
    }

    /// Another program holds the lock tiltserial takes (flock(1) here, as
    /// pyserial's exclusive mode or another tiltserial would): it is named with its pid.
    @Test func aPortHeldByAnotherProgramNamesItAndItsPid() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let locker = Process()
        locker.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        locker.arguments = ["--nonblock", "--close", pty.slavePath, "sh", "-c", "echo locked; read line"]
        let input = Pipe(), output = Pipe()
        locker.standardInput = input
        locker.standardOutput = output
        try locker.run()
        defer {
            try? input.fileHandleForWriting.close()  // EOF on stdin ends the child
            locker.waitUntilExit()
        }
        var p = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        try #require(poll(&p, 1, 30_000) == 1)
        #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self) == "locked\n")
        let r = runTiltserial([pty.slavePath])
        #expect(r.code == 13)
        #expect(r.err == "tiltserial: error: \(pty.slavePath): port busy, open in another program "
            + "(flock, pid \(locker.processIdentifier)): quit it or pick another port\n")
    }

    @Test func badOptionValuesNameTheOption() {
        let r1 = runTiltserial(["/dev/null", "--tick-ms", "0"])
        #expect(r1.code == 21)
        #expect(r1.err == "tiltserial: error: --tick-ms: '0' is not valid; it must be a number between 1 and 1000 ms\n")
        let r2 = runTiltserial(["/dev/null", "--physics", "fast"])
        #expect(r2.code == 21)
        #expect(r2.err == "tiltserial: error: --physics: 'fast' is not valid; it must be recipe or smooth\n")
        let r3 = runTiltserial(["/dev/null", "--axes", "x,x,z"])
        #expect(r3.code == 21)
        #expect(r3.err.contains("--axes: 'x,x,z' is not valid"))
    }

    @Test func configFileKeysAreCheckedAndOptionsWin() throws {
        let unknown = tempPath("unknown.json")
        try Data(#"{"tickMicros": 20000, "tickMilliseconds": 5}"#.utf8).write(to: URL(fileURLWithPath: unknown))
        let r1 = runTiltserial(["/dev/null", "--config", unknown])
        #expect(r1.code == 21)
        #expect(r1.err.hasPrefix("tiltserial: error: \(unknown): unknown key 'tickMilliseconds'; known keys: mode, tickMicros,"))

        let bad = tempPath("bad.json")
        try Data(#"{"deadZone": "wide"}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let r2 = runTiltserial(["/dev/null", "--config", bad])
        #expect(r2.code == 21)
        #expect(r2.err == "tiltserial: error: \(bad): key 'deadZone' must be a number, not the string 'wide'\n")

        // A config value out of range, overridden by the command line: the option wins.
        let csv = tempPath("tilt.csv")
        try Data("t_us,ax,ay,az\n0,0,0,-16000\n100000,0,0,-16000\n".utf8).write(to: URL(fileURLWithPath: csv))
        let range = tempPath("range.json")
        try Data(#"{"tickMicros": 5, "mode": "recipe"}"#.utf8).write(to: URL(fileURLWithPath: range))
        let r3 = runTiltserial(["replay", csv, "--config", range])
        #expect(r3.code == 21)
        let r4 = runTiltserial(["replay", csv, "--config", range, "--tick-ms", "50", "--json"])
        #expect(r4.code == 0)
        let ticks = r4.out.split(separator: "\n")
        #expect(ticks.count == 2)
        #expect(ticks.first?.hasPrefix(#"{"t_us":50000,"seq":0,"#) == true)
        #expect(ticks.last?.hasPrefix(#"{"t_us":100000,"seq":1,"#) == true)
    }

    @Test func badReplayFilesSayWhatIsWrong() throws {
        let junk = tempPath("junk.bin")
        try Data([0x00, 0xFF, 0x13, 0x37]).write(to: URL(fileURLWithPath: junk))
        let r1 = runTiltserial(["replay", junk])
        #expect(r1.code == 18)
        #expect(r1.err.contains("neither a tiltserial recording"))

        let csv = tempPath("bad.csv")
        try Data("t_us,ax,ay,az\n0,1,2\n".utf8).write(to: URL(fileURLWithPath: csv))
        let r2 = runTiltserial(["replay", csv])
        #expect(r2.code == 18)
        #expect(r2.err == "tiltserial: error: \(csv): line 2: expected 4 or 7 comma-separated values (t_us,ax,ay,az,gx,gy,gz), found 3; replay takes a --record file or a sample CSV (docs/usage.md)\n")

        let r3 = runTiltserial(["replay", tempPath("missing.csv")])
        #expect(r3.code == 18)
    }

    @Test func anUnknownOptionIsAUsageError() {
        let r = runTiltserial(["run", "--tilt-harder"])
        #expect(r.code == 21)
        #expect(r.err.contains("Unknown option '--tilt-harder'"))
    }

    /// SerialIO says what happened; tiltserial adds its own next step and code.
    @Test func serialErrorsGetTiltserialsNextStep() {
        let dangling = Failure(SerialError.danglingLink(port: "/tmp/board", target: "/dev/pts/9"))
        #expect(dangling.code == .noSuchPort)
        #expect(dangling.message == "/tmp/board: the link points at /dev/pts/9, which does not exist; plug the board in "
            + "(or start the emulator), or run `tiltserial list` to see the ports present")
        let notATTY = Failure(SerialError.notASerialDevice(port: "/etc"))
        #expect(notATTY.code == .notASerialDevice)
        #expect(notATTY.message == "/etc: not a serial device; pass a tty such as /dev/ttyUSB0 or /dev/ttyACM0 (see `tiltserial list`)")
    }

    /// A word that is no port and close to a subcommand is a typo of it
    /// (ArgumentParser takes any word that is no subcommand for run's port);
    /// a missing name outside /dev may be an emulator's link not made yet.
    @Test func aMistypedCommandIsNamedAndAnEmulatorsLinkExplained() {
        #expect(Failure(SerialError.noSuchPort(port: "calibarte")).message
            == "calibarte: no such serial port, nor a command: did you mean `tiltserial calibrate`?")
        #expect(Failure(SerialError.noSuchPort(port: "pin")).message.hasSuffix("did you mean `tiltserial pins`?"))
        #expect(Failure(SerialError.noSuchPort(port: "board")).message
            == "board: no such serial port; run `tiltserial list` to see the ports present (an emulator's --link appears while tiltsim runs)")
        #expect(Failure(SerialError.noSuchPort(port: "/dev/ttyUSB9")).message
            == "/dev/ttyUSB9: no such serial port; run `tiltserial list` to see the ports present")
        #expect(EditDistance.between("kitten", "sitting") == 3 && EditDistance.between("", "abc") == 3)
    }

    /// TiltPipeline says what is wrong with a recording; tiltserial says how to make a good one.
    @Test func recordingErrorsGetTiltserialsFix() {
        #expect(Failure(replaying: "x.rec", Recording.ReadError.tooShort(bytes: 5)).message
            == "x.rec: too short for a tiltserial recording (5 bytes; its header alone is 12); record again with --record")
        #expect(Failure(replaying: "x.rec", Recording.ReadError.notARecording).message
            == "x.rec: not a tiltserial recording (no TILTREC1 header); for CSV samples use a .csv file, for a raw capture record with --record")
        #expect(Failure(replaying: "x.rec", Recording.ReadError.badDirection(offset: 40)).code == .badFile)
    }
}

/// stdout that cannot be written (a full disk) is not a whole run: the data
/// after it is lost, so the command says so and ends with ioError.
@Suite struct OutputFailureTests {
    @Test func aFullDiskUnderStdoutEndsTheRunWithIOError() throws {
        var csv = "t_us,ax,ay,az\n"
        for i in 0..<200_000 { csv += "\(i * 1000),0,8192,14189\n" }  // 4.6 MB: many 64 KiB blocks
        let path = tempPath("full.csv")
        _ = FileManager.default.createFile(atPath: path, contents: Data(csv.utf8))
        func run(stdout: FileHandle) throws -> (code: Int32, err: String) {
            let process = productProcess("tiltserial", ["replay", path, "--json", "--no-config"])
            process.standardOutput = stdout
            let err = Pipe()
            process.standardError = err
            try process.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let full = try run(stdout: try #require(FileHandle(forWritingAtPath: "/dev/full")))
        #expect(full.code == 19, "ioError: \(full.err)")
        // It stops at the failure instead of replaying the rest into nothing.
        #expect(full.err.contains("tiltserial: stopped (stdout closed or failing): "), "\(full.err)")
        #expect(!full.err.contains("6666 ticks"), "\(full.err)")
        #expect(full.err.hasSuffix("tiltserial: error: writing stdout failed (No space left on device, errno 28); what came after is lost: check where stdout goes (its disk may be full), or send it elsewhere\n"), "\(full.err)")
        // The same run with somewhere to write is a whole one.
        let fine = try run(stdout: try #require(FileHandle(forWritingAtPath: "/dev/null")))
        #expect(fine.code == 0 && !fine.err.contains("error:"), "\(fine.err)")
        #expect(fine.err.contains("tiltserial: replayed: 3 min 20 s, 200000 frames, 0 lost, 0 errors, 6666 ticks"), "\(fine.err)")
    }
}

/// A hang-up (the ssh session gone) and Ctrl-\ end a run with its summary
/// whether or not the live view is on (here stderr is a pipe, no view).
@Suite(.serialized) struct StopSignalTests {
    /// SIGTERM ends a run whose stdout's reader stopped reading (`| sleep 60`)
    /// with its summary: the write blocked in the kernel, restarted after
    /// every signal, and the run stayed deaf to SIGTERM, Ctrl-C and `q`.
    @Test func aStopEndsARunBlockedWritingStdout() throws {
        let link = tempPath("board-blocked")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let process = productProcess("tiltserial", ["run", link, "--no-config", "--json"])
        let out = Pipe()  // never read
        _ = fcntl(out.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 4096)
        process.standardOutput = out
        let err = Pipe()
        process.standardError = err
        try process.run()
        var text = readUntil("waiting for the board", from: err)
        // 100 ticks of JSON, 17 KB, more than the pipe holds: the board's own writes stall once the host stops reading.
        _ = try? board.sendChunked(Stream.hello() + Stream.samples(0..<3000).wire)
        let blocked = waitFor(seconds: 30) {
            (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/wchan", encoding: .utf8))?.contains("pipe_write") == true
        }
        #expect(blocked, "the run never blocked on its stdout")
        let (ended, rest) = signalAndAwaitEnd(process, SIGTERM, reading: err)
        #expect(ended, "still running 30 s after SIGTERM, blocked writing stdout")
        text += rest
        #expect(process.terminationStatus == 0 && text.contains("tiltserial: stopped: "), "\(process.terminationStatus): \(text)")
    }

    /// SIGUSR1 (tiltsim's PNG signal, a `pkill -USR1 tilt` away), SIGALRM and
    /// SIGXCPU too: they ended the process with the terminal left raw.
    @Test(arguments: [SIGHUP, SIGQUIT, SIGUSR1, SIGALRM, SIGXCPU])
    func aHangUpOrQuitEndsTheRunWithItsSummary(signal: Int32) throws {
        let link = tempPath("board-\(signal)")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let process = productProcess("tiltserial", ["run", link, "--no-config", "--json"])
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let err = Pipe()
        process.standardError = err
        try process.run()
        // The board talks once the host has the port open (it says it waits).
        var text = readUntil("waiting for the board", from: err)
        // The last of the 301 samples completes the 10th tick: its OFFSETS shows all were read.
        try board.sendChunked(Stream.hello() + Stream.samples(0..<301).wire)
        #expect(try board.read { $0.offsets.count >= 10 }, "the run is under way, every sample read")
        // A process that shrugs the signal off (Swift's backtracer on SIGQUIT)
        // would keep the pipe open for ever: killed after a generous wait.
        let (ended, rest) = signalAndAwaitEnd(process, signal, reading: err)
        #expect(ended, "still running 30 s after signal \(signal)")
        text += rest
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason) \(process.terminationStatus): \(text)")
        #expect(text.contains("tiltserial: stopped: ") && text.contains(", 302 frames, 0 lost"), "the summary: \(text)")
        #expect(!text.contains("crashed"), "no crash report: \(text)")
    }

    /// Ctrl-C ends a replay as it ends a run: the summary, exit 0, and a hook
    /// still running cut short (it killed the replay and left `sleep 30`
    /// hooks running, a tester's). The replay reads a FIFO whose writer stays
    /// open after one drawer motion, so the signal lands while it waits for more.
    @Test func aStopEndsAReplayWithItsSummaryAndItsHooks() throws {
        let fifo = tempPath("samples.csv"), pids = tempPath("hook.pids")
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = productProcess("tiltserial", ["replay", fifo, "--no-config", "--json",
                                                    "--on-pull", "sh -c 'echo $$ >> \(pids); exec sleep 30'"])
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let err = Pipe()
        process.standardError = err
        try process.run()
        let writer = try #require(FileHandle(forWritingAtPath: fifo))  // opens once the replay opens it to read
        defer { try? writer.close() }
        // One drawer motion, one pull: its hook sleeps while the replay waits for more.
        writer.write(Data(PinsTests.drawerCSV().utf8))
        var text = readUntil("ribbon fired", from: err)
        #expect(waitFor(seconds: 30) { ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").hasSuffix("\n") }, "the hook started")
        let (ended, rest) = signalAndAwaitEnd(process, SIGINT, reading: err)
        text += rest
        #expect(ended, "still running 30 s after Ctrl-C")
        #expect(process.terminationStatus == 0 && process.terminationReason == .exit, "\(process.terminationStatus): \(text)")
        #expect(text.contains("tiltserial: stopped: ") && text.contains("1 --on-pull hook cut short at exit"), "\(text)")
        #expect(text.contains("\(fifo) is a FIFO: waiting for a program to write to it (Ctrl-C stops)"), "\(text)")
        let hook = try #require(Int32(((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: "\n").first ?? ""))
        #expect(waitFor(seconds: 10) { kill(hook, 0) != 0 }, "the hook's sleep still runs")
    }
}

/// Past a file-size limit (`ulimit -f`) the recording stops and the run goes
/// on, as for a full disk: SIGXFSZ killed the run (exit 153), its terminal raw.
/// Spawned with SIGXFSZ at its default (the test runner ignores it, and an
/// ignored signal survives exec).
@Suite struct FileSizeLimitTests {
    @Test func aRecordingPastTheFileSizeLimitStopsAndTheRunGoesOn() throws {
        let link = tempPath("board-xfsz"), recording = tempPath("limited.tiltrec")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let err = Pipe()
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        let tool = Bundle.main.bundleURL.appendingPathComponent("tiltserial").path
        let spawn = ProcessSpawn(defaultSignals: [.fileSizeLimit], descriptors: [(null, 1), (err.fileHandleForWriting.fileDescriptor, 2)])
        let pid = try spawn.spawn("/bin/sh", argv: ["sh", "-c", "ulimit -f 4; exec \"$0\" run \"$1\" --no-config --record \"$2\"",
                                                    tool, link, recording]).get()
        let child = ChildProcess(pid: pid)
        try err.fileHandleForWriting.close()
        var text = readUntil("waiting for the board", from: err)
        // 24 KB recorded: past 4 blocks. The last sample completes the 34th tick: its OFFSETS shows all were read.
        try board.sendChunked(Stream.hello() + Stream.samples(0..<1021).wire)
        #expect(try board.read { $0.offsets.count >= 34 }, "the run goes on past the limit")
        child.send(.terminate)
        var ending: ChildProcess.Ending?
        let deadline = Date().addingTimeInterval(30)
        while ending == nil && deadline.timeIntervalSinceNow > 0 {
            ChildProcess.waitForAnExit([child], timeout: .seconds(1))
            ending = child.reapIfEnded()
        }
        if ending == nil { child.send(.kill); child.waitUntilEnded() }
        text += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(ending == .exited(code: 0), "\(String(describing: ending)): \(text)")
        #expect(text.contains("tiltserial: stopped: ") && text.contains(", 1022 frames, 0 lost"), "\(text)")
        #expect(text.contains("File too large"), "the recording's stop is said: \(text)")
    }
}
