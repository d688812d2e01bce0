import Foundation
import SerialIO
import Testing

/// `tiltserial demo`, the README's first command, run in-process and sped up
/// (the physics runs on board time, so speed does not change the outcome).
@Suite struct DemoTests {
    @Test(arguments: [("pull", 1), ("bump", 0)])
    func nativeDemoPlaysItsScenarioToTheEnd(scenario: String, fires: Int) throws {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(scenario)-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: png) }
        let run = runTiltserial(["demo", "--engine", "native", "--scenario", scenario, "--speed", "10", "--json", "--png", png],
                                seconds: 60)
        #expect(run.code == 0, "\(run.err)")
        let ticks = run.out.split(separator: "\n").filter { !$0.contains("\"event\"") }
        #expect(ticks.count > 300)  // 30 ms ticks over the scenario and its settling time
        #expect(ticks.filter { $0.contains("\"fired\":true") }.count == fires)
        #expect(run.err.contains("demo: \(fires) ribbon pull\(fires == 1 ? "" : "s") fired"))
        let header = try #require(FileManager.default.contents(atPath: png)).prefix(8)
        #expect(Array(header) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func avrDemoRunsOurFirmwareAndFiresThePullOnce() {
        let run = runTiltserial(["demo", "--scenario", "pull", "--speed", "3"], seconds: 120)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains("avr (our firmware in simavr)"), "\(run.err)")
        #expect(run.err.contains("demo: 1 ribbon pull fired"), "\(run.err)")
        #expect(run.err.contains(", 0 lost, 0 errors"), "\(run.err)")
    }

    /// The drawer motions end with exactly one pin (`drawer`) and none
    /// (`drawer-sideways`, whose second pull closes the drawer), on the native
    /// board and on our firmware in simavr; the demo keeps no pins file, so
    /// each starts with none.
    @Test(arguments: [("native", "drawer", 1), ("native", "drawer-sideways", 0), ("avr", "drawer", 1), ("avr", "drawer-sideways", 0)])
    func drawerDemosEndWithTheirPins(engine: String, scenario: String, pins: Int) {
        let fires = pins == 1 ? "1 ribbon pull" : "2 ribbon pulls"
        let run = runTiltserial(["demo", "--engine", engine, "--scenario", scenario, "--speed", engine == "avr" ? "3" : "10", "--json"],
                                seconds: 180)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains(engine == "avr" ? "avr (our firmware in simavr)" : "native board"), "\(run.err)")
        #expect(run.err.contains("demo: \(fires) fired, \(pins) pin\(pins == 1 ? "" : "s") dropped, \(pins) on the map"), "\(run.err)")
        let lines = run.out.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"pin\"") }.count == pins)
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"pull_out\"") }.count == pins)
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"drawer\",\"open\":true") }.count == 1)
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"drawer\",\"open\":false") }.count == 1, "closed by the drop or the second pull")
    }

    /// A demo killed outright (SIGKILL: no chance to stop its board) still
    /// takes tiltsim with it (`--exit-with-parent`), instead of leaving a board
    /// running on a pty nobody reads. Watched from /proc, not from the board's
    /// port: opening the port raced the demo's own open of it ("port busy").
    @Test func aKilledDemoTakesItsBoardWithIt() throws {
        let demo = Process()
        demo.executableURL = Bundle.main.bundleURL.appendingPathComponent("tiltserial")
        demo.arguments = ["demo", "--engine", "native", "--forever", "--json"]
        let err = Pipe()
        demo.standardError = err
        demo.standardOutput = FileHandle.nullDevice
        try demo.run()
        // A --forever demo never ends by itself: killed however this test ends (one outlived a failed run).
        defer { if demo.isRunning { kill(demo.processIdentifier, SIGKILL) } }
        _ = try #require(Self.line(from: err.fileHandleForReading, containing: "board: sensor", seconds: 60), "the demo never reached its board")
        let board = try #require(Self.children(of: demo.processIdentifier, named: "tiltsim").first, "no tiltsim child")
        defer { if Self.isRunning(board) { kill(board, SIGKILL) } }
        kill(demo.processIdentifier, SIGKILL)  // not waited for: Foundation reaps it in its own time
        #expect(Self.ends(board, within: 30), "tiltsim (pid \(board)) still runs 30 s after its demo was killed")
    }

    /// A board that dies under the demo (tiltsim killed, or crashed) ends the
    /// demo with exit 20 and why; it waited for the board to come back for
    /// good, and reopened the pty number when another program's pty got it.
    @Test func aDemoWhoseBoardDiesEndsWithTheEmulatorCode() throws {
        let demo = Process()
        demo.executableURL = Bundle.main.bundleURL.appendingPathComponent("tiltserial")
        demo.arguments = ["demo", "--engine", "native", "--forever", "--view", "none"]
        let err = Pipe()
        demo.standardError = err
        demo.standardOutput = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        demo.terminationHandler = { _ in ended.signal() }
        try demo.run()
        defer { if demo.isRunning { kill(demo.processIdentifier, SIGKILL) } }
        _ = try #require(Self.line(from: err.fileHandleForReading, containing: "board: sensor", seconds: 60), "the demo never reached its board")
        let board = try #require(Self.children(of: demo.processIdentifier, named: "tiltsim").first, "no tiltsim child")
        kill(board, SIGKILL)
        #expect(ended.wait(timeout: .now() + 30) == .success, "the demo still runs 30 s after its board died")
        #expect(demo.terminationStatus == 20)
        let rest = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.hasSuffix("tiltserial: error: tiltsim ended during the demo (killed by signal 9); run the demo again\n"), "\(rest)")
    }

    /// The pids of `parent`'s children whose command is `name` (/proc/PID/stat).
    static func children(of parent: pid_t, named name: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            return stat[stat.index(after: open)..<close] == name && fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }

    /// True while `pid` exists and is not a zombie (/proc/PID/stat's state).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    /// Whether `pid` (not our child: no waitpid) ends within `seconds`: a
    /// pidfd (glibc 2.36's `pidfd_open`, looked up as `ChildProcess` does)
    /// becomes readable when any process exits, so this is one poll.
    static func ends(_ pid: pid_t, within seconds: Double) -> Bool {
        typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> CInt
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else {
            Issue.record("no pidfd_open in this libc")
            return false
        }
        let descriptor = unsafeBitCast(symbol, to: PidfdOpen.self)(pid, 0)
        guard descriptor >= 0 else { return !isRunning(pid) }  // ESRCH: gone already
        defer { close(descriptor) }
        var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(seconds)
        while deadline.timeIntervalSinceNow > 0 {
            if poll(&fd, 1, Int32(deadline.timeIntervalSinceNow * 1000) + 1) > 0 { return true }
        }
        return !isRunning(pid)
    }

    /// The first stderr line containing `text`, read as it comes (nil after `seconds`).
    static func line(from handle: FileHandle, containing text: String, seconds: Double) -> String? {
        var fd = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        var seen = ""
        let deadline = Date().addingTimeInterval(seconds)
        while deadline.timeIntervalSinceNow > 0 {
            guard poll(&fd, 1, Int32(deadline.timeIntervalSinceNow * 1000) + 1) > 0 else { continue }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            seen += String(decoding: chunk, as: UTF8.self)
            if let found = seen.split(separator: "\n").first(where: { $0.contains(text) }) { return String(found) }
        }
        return nil
    }

    @Test func unknownScenarioNamesTheChoices() {
        let run = runTiltserial(["demo", "--scenario", "loop-the-loop"])
        #expect(run.code == 21)
        #expect(run.err.contains("no scenario 'loop-the-loop'; choose one of rest,"))
    }
}
