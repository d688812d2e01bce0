import Foundation
import TestSupport
import Testing
import TiltDisplay
import WireProtocol

/// The `tiltsim` executable as a person runs it: a subprocess that prints its
/// pty path, serves a board there, and writes its screen on request.
@Suite struct TiltsimCommandTests {
    /// Where SwiftPM put the executables built with the tests.
    static let products = Bundle.main.bundleURL

    func run(_ arguments: [String], seconds: Double = 30, executable: URL? = nil) throws -> (code: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = executable ?? Self.products.appendingPathComponent("tiltsim")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // Both pipes read as the child writes: more than a pipe holds (64 KiB) would block it for ever.
        let (outText, errText) = (PipeText(out), PipeText(err))
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            finished.wait()
        }
        return (process.terminationStatus, outText.whole(), errText.whole())
    }

    /// Copies a program through a descriptor closed on exec: FileManager's
    /// copy left one that a child forked meanwhile by another test kept open,
    /// and the copy's exec failed with "Text file busy".
    static func copyExecutable(_ source: URL, to target: URL) throws {
        let bytes = try Data(contentsOf: source)
        let fd = open(target.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw POSIXError(.EIO) }
    }

    /// `body` (a first run of a fresh copy), again while its exec says "Text
    /// file busy": a child another test forked may still hold the copy's
    /// descriptor until that child execs, which ends the wait. Bounded.
    static func runFreshCopy<T>(_ body: () throws -> T) throws -> T {
        for _ in 0..<100 {
            do { return try body() } catch let error as NSError where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY) {
                continue
            }
        }
        return try body()
    }

    /// A pipe's text, read to its end on a thread of its own.
    final class PipeText: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        init(_ pipe: Pipe) {
            Thread.detachNewThread { [self] in
                data = pipe.fileHandleForReading.readDataToEndOfFile()
                done.signal()
            }
        }

        /// Everything written, once the writer closed the pipe.
        func whole() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }

    @Test func nativeBoardServesItsPtyAndWritesItsScreenAtExit() throws {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("tiltsim-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: png) }
        let result = try run(["--engine", "native", "--rate", "200", "--motion", "rest", "--duration", "0.5", "--png", png])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.hasPrefix("/dev/pts/"), "the pty path comes first on stdout: \(result.out)")
        let bytes = try #require(FileManager.default.contents(atPath: png))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// Firmware that crashes (erased flash, a sketch for another chip) said
    /// nothing: the board sat halted and a host timed out blaming the sketch.
    /// One line says so when it happens.
    @Test func aFirmwareThatCrashesIsSaidOnce() throws {
        let crashing = try AVRBoardLifecycleTests.crashing.get()
        let result = try run(["--firmware", crashing, "--run-now", "--duration", "1"])
        #expect(result.code == 0, "\(result.err)")
        let lines = result.err.split(separator: "\n").filter { $0.contains("crashed") }
        #expect(lines.count == 1, "\(result.err)")
        #expect(lines.first.map { $0.hasPrefix("tiltsim: /dev/pts/") && $0.hasSuffix(": the firmware crashed (bad opcode, jump or stack) at 0.000 s "
            + "of board time; a host opening the port resets it (a sketch built for another board? see --board)") } == true, "\(result.err)")
    }

    @Test func thePNGPathIsCheckedAtStartAndItsWritingAnnounced() throws {
        let missing = try run(["--engine", "native", "--png", "/nonexistent/dir/screen.png", "--duration", "30"])
        #expect(missing.code == 18)
        #expect(missing.out.isEmpty, "no board was started: \(missing.out)")
        #expect(missing.err == "tiltsim: /nonexistent/dir/screen.png: cannot write a PNG there (No such file or directory); pick a writable directory\n")

        let png = FileManager.default.temporaryDirectory.appendingPathComponent("tiltsim-announce-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: png) }
        let result = try run(["--engine", "native", "--duration", "0.3", "--png", png])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.contains("tiltsim: wrote the board's screen to \(png)\n"))
    }

    /// ArgumentParser's own usage errors name the fix in one line, as
    /// tiltserial's do (they named none: "tiltsim: Unknown option '-q'"):
    /// the command's --help, or how to attach a negative value; exit 21, and
    /// 1 for `tiltsim wokwi` (wokwi-cli's code for a bad option).
    @Test func usageErrorsNameTheFixInOneLine() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let long = String(repeating: "9", count: 100_000)
        let cases: [(arguments: [String], code: Int32, line: String)] = [
            (["-q"], 21, "tiltsim: Unknown option '-q'; see `tiltsim --help` for the options"),
            (["run"], 21, "tiltsim: Missing expected argument '<sketch>'; see `tiltsim run --help` for the options"),
            (["run", echo.elf, "--timeout"], 21, "tiltsim: Missing value for '--timeout <seconds>'; see `tiltsim run --help` for the options"),
            (["run", echo.elf, "--timeout", "x" + long], 21,
             "tiltsim: The value 'x\(long.prefix(39))…' is invalid for '--timeout <seconds>'; see `tiltsim run --help` for the options"),
            (["wokwi", "-x"], 1, "tiltsim: Unknown option '-x'; see `tiltsim wokwi --help` for the options"),
            // ArgumentParser's guess reads on in brackets ("…'--motoin'. Did you mean '--motion'?; see" before).
            (["run", echo.elf, "--motoin", "tour"], 21,
             "tiltsim: Unknown option '--motoin' (did you mean '--motion'?); see `tiltsim run --help` for the options"),
            (["--noise", "-1"], 21, "tiltsim: Missing value for '--noise <scale>'; a value that starts with '-' must be attached with '=': --noise=-1"),
        ]
        for test in cases {
            let result = try run(test.arguments)
            #expect(result.code == test.code, "\(test.arguments): \(result.err.prefix(300))")
            #expect(result.err == test.line + "\n", "\(test.arguments)")
        }
    }

    /// A value of 100 KB is quoted at most 40 characters long, as the docs
    /// promise (`quoted`, the helper tiltserial uses): `--motion`,
    /// `--expect-serial` (refused, or waited for in vain), `--screenshot`,
    /// `--display` and `--faults` printed it whole on one line.
    @Test func aLongValueIsQuotedShort() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let long = String(repeating: "a", count: 100_000), cut = String(repeating: "a", count: 40) + "…"
        let cases: [(arguments: [String], code: Int32, line: String)] = [
            (["--motion", long], 21, "tiltsim: --motion \(cut): unknown; use one of "),
            (["run", echo.elf, "--quiet", "--timeout", "0.1", "--expect-serial", "(" + long], 21,
             "tiltsim: '(\(cut.dropFirst())' is not a regular expression (expected ')'); escape special characters with a backslash"),
            (["run", echo.elf, "--quiet", "--timeout", "0.1", "--expect-serial", long], 26,
             "tiltsim run: FAILED, timed out: the run's time (0.100 s) ran out waiting for /\(cut)/; "),
            (["run", echo.elf, "--quiet", "--screenshot", long], 21, "tiltsim: --screenshot \(cut): write SECONDS:FILE.png"),
            (["run", echo.elf, "--quiet", "--display", long], 21, "tiltsim: --display \(cut): name the display module"),
            (["--faults", long], 21, "tiltsim: --faults: fault '\(cut)': write key=number"),
        ]
        for test in cases {
            let result = try run(test.arguments)
            #expect(result.code == test.code, "\(test.arguments.first!): \(result.err.prefix(300))")
            #expect(result.err.split(separator: "\n").contains { $0.hasPrefix(test.line) }, "\(result.err.prefix(300))")
            #expect(result.err.count < 400, "\(test.arguments.first!): \(result.err.count) characters")
        }
    }

    /// `--speed` outside 0.01…1000 is refused in one line (1e-20 passed and
    /// trapped in the board's pacer, exit 132), as `tiltserial demo` refuses it.
    @Test func aSpeedOutsideItsRangeIsRefused() throws {
        let whole = try run(["--engine", "native", "--speed", "5000", "--duration", "1", "--run-now"])
        #expect(whole.err == "tiltsim: --speed 5000: give a factor from 0.01 to 1000, e.g. --speed 4\n", "as typed, not 5000.0")
        for speed in ["1e-20", "0.001", "1001", "nan", "inf"] {
            let refused = try run(["--engine", "native", "--speed", speed, "--duration", "1", "--run-now"])
            #expect(refused.code == 21, "\(speed): \(refused.err)")
            #expect(refused.err.hasPrefix("tiltsim: --speed ") && refused.err.hasSuffix(": give a factor from 0.01 to 1000, e.g. --speed 4\n")
                    && refused.err.split(separator: "\n").count == 1, "\(speed): \(refused.err)")
            #expect(refused.out.isEmpty, "no board started")
        }
        let slowest = try run(["--engine", "native", "--speed", "0.01", "--duration", "0.3", "--run-now"])
        #expect(slowest.code == 0, "\(slowest.err)")
    }

    @Test func theBoardIsHeldOffUntilAHostOpensItsPortUnlessRunNow() throws {
        let held = try run(["--engine", "native", "--screen", "--duration", "0.5"])
        #expect(held.code == 0, "\(held.err)")
        #expect(held.err.contains("native  off until a host opens /dev/pts/"))
        #expect(!held.err.contains("\u{1B}"), "stderr is no terminal here: --screen writes its status line plainly, no escapes")
        let now = try run(["--engine", "native", "--screen", "--duration", "0.5", "--run-now"])
        #expect(now.code == 0, "\(now.err)")
        #expect(!now.err.contains("off until a host opens"))
        #expect(now.err.contains(" Hz "))
        // Its speed line: a board that never ran says so, not the machine's uptime as its wall time.
        #expect(held.err.contains("tiltsim: the board never ran: no host opened its port (--run-now runs it without one)\n"), "\(held.err)")
        #expect(now.err.contains(" board seconds in ") && !now.err.contains("never ran"), "\(now.err)")
    }

    @Test func anAVRBoardHeldUntilOpenedDropsNothingAndWhatNoHostReadIsSaid() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let held = try run(["--firmware", echo.elf, "--free-running", "--duration", "1", "--screen"])
        #expect(held.code == 0, "\(held.err)")
        #expect(held.err.contains("avr  held in reset until a host opens /dev/pts/"))
        #expect(!held.err.contains("were dropped"))
        let running = try run(["--firmware", echo.elf, "--free-running", "--duration", "1", "--run-now"])
        #expect(running.code == 0, "\(running.err)")
        #expect(running.err.range(of: #"tiltsim: /dev/pts/\d+: [1-9]\d* bytes the board sent were dropped while no host read the port \(none had it open, or it did not read\)\n"#,
                                  options: .regularExpression) != nil, "\(running.err)")
    }

    /// `--eeprom FILE` keeps the board's EEPROM between runs, as a board keeps
    /// it between power cycles: a sketch counting its boots there counts on
    /// across two tiltsim runs; a file bigger than the EEPROM is refused.
    @Test func theEEPROMFileKeepsTheBoardsEEPROMBetweenRuns() throws {
        let sketch = try SketchFixtures.eepromBoots.get()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tiltsim-eeprom-\(getpid()).bin").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        for boots in [0, 1] as [UInt8] {
            let run = try run(["--firmware", sketch.elf, "--run-now", "--free-running", "--duration", "1", "--eeprom", file])
            #expect(run.code == 0, "\(run.err)")
            let bytes = try #require(FileManager.default.contents(atPath: file))
            #expect(bytes.count == 1024 && bytes.first == boots, "after run \(boots): \(bytes.prefix(4).map { $0 }) of \(bytes.count)")
        }
        try Data(repeating: 0, count: 2000).write(to: URL(fileURLWithPath: file))
        let big = try run(["--firmware", sketch.elf, "--duration", "1", "--eeprom", file])
        #expect(big.code == 18)
        #expect(big.err == "tiltsim: \(file): 2000 bytes, not this board's EEPROM (1024 bytes); give another file, or delete it to start erased\n")
        // A 2 GiB file (sparse: no disk) is refused by its size, unread: it was read whole
        // first (2.1 GB of memory), and under a 1 GB limit it failed as "cannot read".
        let huge = file + ".huge"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil) && truncate(huge, 2 << 30) == 0)
        defer { try? FileManager.default.removeItem(atPath: huge) }
        let limited = try self.run(["-c", "ulimit -v 1000000; exec \"$0\" \"$@\"", Self.products.appendingPathComponent("tiltsim").path,
                                    "run", sketch.elf, "--timeout", "0.1", "--quiet", "--eeprom", huge], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(limited.code == 18)
        #expect(limited.err == "tiltsim: \(huge): 2147483648 bytes, not this board's EEPROM (1024 bytes); give another file, or delete it to start erased\n")
        // A shorter file is no EEPROM either: it was overwritten (a text file named by mistake).
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: file))
        let short = try run(["--firmware", sketch.elf, "--duration", "1", "--eeprom", file])
        #expect(short.code == 18 && short.err.contains("9 bytes, not this board's EEPROM (1024 bytes)"), "\(short.err)")
        #expect(FileManager.default.contents(atPath: file) == Data("my notes\n".utf8), "left as it was")
    }

    /// `--eeprom` through a symlink writes the file it names (the link was
    /// replaced by a plain file); a place it cannot be written is refused
    /// before the board starts (it was said at exit, the run's EEPROM lost).
    @Test func theEEPROMFileFollowsASymlinkAndIsCheckedAtStart() throws {
        let sketch = try SketchFixtures.eepromBoots.get()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltsim-eeprom-link-\(getpid())-\(UUID().uuidString.prefix(6))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/kept.bin", link = folder + "/link.bin"
        try Data([0] + [UInt8](repeating: 0xFF, count: 1023)).write(to: URL(fileURLWithPath: target))  // an Uno EEPROM, one boot counted
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "kept.bin")
        let run = try run(["--firmware", sketch.elf, "--run-now", "--free-running", "--duration", "1", "--eeprom", link])
        #expect(run.code == 0, "\(run.err)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "kept.bin", "the link stays a link")
        let bytes = try #require(FileManager.default.contents(atPath: target))
        #expect(bytes.count == 1024 && bytes.first == 1, "the boot the sketch counted is in the file the link names")

        let nowhere = try self.run(["--firmware", sketch.elf, "--duration", "30", "--eeprom", folder + "/missing/e.bin"])
        #expect(nowhere.code == 18)
        #expect(nowhere.out.isEmpty, "no board was started: \(nowhere.out)")
        #expect(nowhere.err == "tiltsim: \(folder)/missing/e.bin: cannot keep the EEPROM there (No such file or directory); pick a writable directory\n")
    }

    /// The firmware is found from the executable, never the working directory
    /// (here the package root, which has Hardware/build/tiltserial.elf): a copy
    /// of tiltsim outside any source tree finds none, says so naming `make -C
    /// Hardware` and runs the native board; given one installed beside it
    /// (PREFIX/share/tiltserial, another board's in its own folder there), it
    /// runs that in simavr.
    @Test func aCopyOutsideTheTreeFindsOnlyTheFirmwareInstalledBesideIt() throws {
        let files = FileManager.default
        let prefix = files.temporaryDirectory.appendingPathComponent("tiltsim-copy-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? files.removeItem(at: prefix) }
        let copy = prefix.appendingPathComponent("bin/tiltsim")
        try files.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.copyExecutable(Self.products.appendingPathComponent("tiltsim"), to: copy)

        let lone = try Self.runFreshCopy { try run(["--motion", "rest", "--screen", "--duration", "0.5"], executable: copy) }
        #expect(lone.code == 0, "\(lone.err)")
        #expect(lone.err.contains("tiltsim: no firmware at \(prefix.path)/bin/../share/tiltserial/tiltserial.elf; "
                                  + "build it with make -C Hardware (or install it: make install); using the native engine\n"), "\(lone.err)")
        #expect(lone.err.contains("native  off until a host opens"), "\(lone.err)")
        // The native engine has no EEPROM: --eeprom stops the run in one line, with no word of
        // the native engine (it said "using the native engine", then refused).
        let kept = try run(["--motion", "rest", "--duration", "0.5", "--eeprom", prefix.appendingPathComponent("e.bin").path], executable: copy)
        #expect(kept.code == 27)
        #expect(kept.err == "tiltsim: no firmware at \(prefix.path)/bin/../share/tiltserial/tiltserial.elf; build it with make -C Hardware "
                + "(or install it: make install): --eeprom needs it (the native engine is an Uno without parts)\n", "\(kept.err)")

        // So are the other avr-only options: --stats measures a glass the native model does not draw.
        let stats = try run(["--stats", "--motion", "rest", "--duration", "0.5"], executable: copy)
        #expect(stats.code == 27)
        #expect(stats.err.hasSuffix(": --stats needs it (the native engine is an Uno without parts)\n"), "\(stats.err)")

        let installed = prefix.appendingPathComponent("share/tiltserial/tiltserial.elf")
        try files.createDirectory(at: installed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try files.copyItem(atPath: BuiltFirmware.tiltserial(), toPath: installed.path)
        let avr = try run(["--motion", "rest", "--screen", "--duration", "0.5"], executable: copy)
        #expect(avr.code == 0, "\(avr.err)")
        #expect(!avr.err.contains("no firmware"), "\(avr.err)")
        #expect(avr.err.contains("avr  held in reset until a host opens"), "\(avr.err)")

        // Another board's build lives in its own folder (make install puts every board's there).
        // Without it the native model would stand in for a Mega, wired as asked: refused, not rehearsed on the wrong board.
        let noMega = try run(["--board", "mega", "--sensor-address", "none", "--motion", "rest", "--duration", "0.5"], executable: copy)
        #expect(noMega.code == 27)
        #expect(noMega.err == "tiltsim: no firmware at \(prefix.path)/bin/../share/tiltserial/mega/tiltserial.elf; "
                + "build it with make -C Hardware BOARD=mega (or install it: make install): --board mega and the wiring options need it "
                + "(the native engine is an Uno without parts)\n", "\(noMega.err)")
        let mega = prefix.appendingPathComponent("share/tiltserial/mega/tiltserial.elf")
        try files.createDirectory(at: mega.deletingLastPathComponent(), withIntermediateDirectories: true)
        try files.copyItem(atPath: BuiltFirmware.tiltserial(for: .mega), toPath: mega.path)
        let onMega = try run(["--board", "mega", "--motion", "rest", "--screen", "--duration", "0.5"], executable: copy)
        #expect(onMega.code == 0, "\(onMega.err)")
        #expect(!onMega.err.contains("no firmware"), "\(onMega.err)")
        #expect(onMega.err.contains("avr  held in reset until a host opens"), "\(onMega.err)")
    }

    @Test func badOptionsGetOneLineAndAUsageCode() throws {
        let motion = try run(["--motion", "loop-the-loop"])
        #expect(motion.code == 21)
        #expect(motion.err.hasPrefix("tiltsim: --motion loop-the-loop: unknown; use one of rest,"))
        #expect(motion.err.split(separator: "\n").count == 1)
        let script = try run(["--script", "/nonexistent/motion.txt"])
        #expect(script.code == 18)
        #expect(script.err.contains("/nonexistent/motion.txt"))
    }
}

/// A parent that blocks SIGINT and SIGTERM (to sigwait for them, as
/// `tiltserial demo` does) passes that mask on to its children; tiltsim must
/// still stop on them.
@Suite struct TiltsimSignalTests {
    /// Starts tiltsim with `blocked` signals blocked, as posix_spawn passes a mask on.
    func spawnBlocked(_ arguments: [String], blocked: [Int32]) throws -> (pid: pid_t, stdout: Int32) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw AVRTestFailure("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in blocked { sigaddset(&mask, signal) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let path = TiltsimCommandTests.products.appendingPathComponent("tiltsim").path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else { throw AVRTestFailure("posix_spawn failed: \(spawned)") }
        return (pid, pipeEnds[0])
    }

    /// Waits for `pid` on another thread, at most `seconds`; its exit status, or nil (then it is killed).
    func exitStatus(_ pid: pid_t, within seconds: Double = 30) -> Int32? {
        final class Status: @unchecked Sendable { var value: Int32 = 0 }
        let done = DispatchSemaphore(value: 0), status = Status()
        Thread.detachNewThread {
            waitpid(pid, &status.value, 0)
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else {
            kill(pid, SIGKILL)
            done.wait()
            return nil
        }
        return status.value
    }

    /// A second tiltsim given the --link of one still running (a second
    /// terminal, the same command) refuses it in one line, exit 20, and the
    /// link keeps naming the first board.
    @Test func aSecondTiltsimOnALiveLinkIsRefused() throws {
        let link = ScratchSpace.folder("tiltsim-link") + "/board"
        let (pid, stdout) = try spawnBlocked(["--engine", "native", "--motion", "rest", "--link", link], blocked: [])
        defer { close(stdout) }
        var byte: UInt8 = 0, line: [UInt8] = []
        while read(stdout, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        let pty = String(decoding: line, as: UTF8.self)
        #expect(pty.hasPrefix("/dev/pts/"))

        let second = try TiltsimCommandTests().run(["--engine", "native", "--motion", "rest", "--link", link])
        kill(pid, SIGTERM)
        #expect(exitStatus(pid) != nil)
        #expect(second.code == 20)
        #expect(second.err == "tiltsim: native board: \(link) is the link of another board still running (tiltsim (pid \(pid))); stop it (kill \(pid)) or pick another path\n")
        #expect(second.out.isEmpty, "no pty path printed: \(second.out)")
    }

    /// Every stop signal ends tiltsim as Ctrl-C does (its PNG and EEPROM
    /// written): SIGHUP (its terminal closed) killed it, SIGQUIT (Ctrl-\\) set
    /// off Swift's crash report and once hung it.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT])
    func aStopSignalBlockedByTheParentStillStopsTiltsim(signal: Int32) throws {
        let (pid, stdout) = try spawnBlocked(["--engine", "native", "--motion", "rest"], blocked: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
        defer { close(stdout) }
        // The pty path is printed once the handlers are in place.
        var byte: UInt8 = 0, line: [UInt8] = []
        while read(stdout, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        #expect(String(decoding: line, as: UTF8.self).hasPrefix("/dev/pts/"))
        kill(pid, signal)
        let status = try #require(exitStatus(pid), "tiltsim ignored signal \(signal) that its parent had blocked")
        #expect(status & 0x7F == 0, "exited, not killed: status \(status)")
        #expect((status >> 8) & 0xFF == 0, "a stop signal ends tiltsim normally")
    }
}
