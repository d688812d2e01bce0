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
    /// (`drawer-sideways`), on the native board and on our firmware in simavr;
    /// the demo keeps no pins file, so each starts with none.
    @Test(arguments: [("native", "drawer", 1), ("native", "drawer-sideways", 0), ("avr", "drawer", 1), ("avr", "drawer-sideways", 0)])
    func drawerDemosEndWithTheirPins(engine: String, scenario: String, pins: Int) {
        let run = runTiltserial(["demo", "--engine", engine, "--scenario", scenario, "--speed", engine == "avr" ? "3" : "10", "--json"],
                                seconds: 180)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains(engine == "avr" ? "avr (our firmware in simavr)" : "native board"), "\(run.err)")
        #expect(run.err.contains("demo: 1 ribbon pull fired, \(pins) pin\(pins == 1 ? "" : "s") dropped, \(pins) on the map"), "\(run.err)")
        let lines = run.out.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"pin\"") }.count == pins)
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"pull_out\"") }.count == pins)
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"drawer\",\"open\":true") }.count == 1)
    }

    /// A demo killed outright (SIGKILL: no chance to stop its board) still
    /// takes tiltsim with it (`--exit-with-parent`), instead of leaving a board
    /// running on a pty nobody reads. Seen from the board's port: it hangs up.
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
        // "tiltserial: demo: native board on /dev/pts/N; playing ..."
        let line = try #require(Self.line(from: err.fileHandleForReading, containing: " board on ", seconds: 60), "the demo never named its board")
        let path = try #require(line.components(separatedBy: " board on ").last?.components(separatedBy: ";").first)
        let port = try SerialPort.open(path: path)
        defer { port.close() }
        kill(demo.processIdentifier, SIGKILL)  // not waited for: Foundation reaps it in its own time
        // Read what the board still sends until it hangs up (tiltsim ended) or 30 s pass.
        let hungUp = Self.hangsUp(port, within: 30)
        #expect(hungUp, "\(path): tiltsim still runs 30 s after its demo was killed")
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

    /// Reads `port` until it hangs up (true) or `seconds` pass (false).
    static func hangsUp(_ port: any SerialTransport, within seconds: Double) -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        let deadline = Date().addingTimeInterval(seconds)
        while deadline.timeIntervalSinceNow > 0 {
            do {
                if try port.waitReadable(timeout: .milliseconds(Int(deadline.timeIntervalSinceNow * 1000) + 1)) { _ = try port.read(into: buffer) }
            } catch {
                if case .deviceGone = error { return true }
                return false
            }
        }
        return false
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
